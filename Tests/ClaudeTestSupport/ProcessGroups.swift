// What is left of a process group, as /proc shows it: a killed group's
// members may stay zombies for a while (until whoever they were reparented
// to reaps them), and kill(-group, 0) still finds a zombie, so "nothing of
// the group still runs" is read from each process's state.

import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The processes of group `group` that are not zombies, from /proc.
package func runningMembers(of group: pid_t) -> [pid_t] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return names.compactMap(pid_t.init).filter { pid in
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        // After "(comm)": state, ppid, pgrp.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 2 && fields[0] != "Z" && pid_t(fields[2]) == group
    }
}
