// What this CPU runs, asked once per process: for the scans that choose
// their window width as the library loads.

#ifndef SCAN_ACCELERATION_CPU_FEATURES_H
#define SCAN_ACCELERATION_CPU_FEATURES_H

/// Whether this CPU and OS run AVX2 code (OSXSAVE and the YMM state in
/// XCR0, then the AVX2 bit); 0 off x86-64.
int _scan_cpu_runs_avx2(void);

#endif
