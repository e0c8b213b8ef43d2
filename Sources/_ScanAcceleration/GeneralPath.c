// The one switch that turns every fast reader off.
//
// The libraries read the usual input in one step beside a general path
// that reads anything: the SSE parser's whole blocks, the accumulator's
// hot blocks, usual deltas and boundary events, Bedrock's own chunk
// layout, and the JSON string scans' 16- and 32-byte windows. Tests and
// fuzz targets hold each fast reader to the general path; with
// CLAUDE_STREAMING_GENERAL_PATH set (to anything but empty or "0") the
// general path alone runs, so the same suites check it by itself. The
// variable is read once, as the library loads: asking the environment on
// a hot path would cost a call and a lock, and a switch that changed
// mid-stream could make one stream read two ways.

#include "_ScanAcceleration.h"
#include "GeneralPathSwitch.h"

int _scan_general_path_only = 0;

__attribute__((constructor)) static void read_general_path_switch(void) { _scan_general_path_only = general_path_requested(); }

int _scan_general_path(void) { return _scan_general_path_only; }
