// Whether CLAUDE_STREAMING_GENERAL_PATH asks for the general path alone
// (GeneralPath.c): set, and neither empty nor "0". For the constructors of
// this target, which run in no set order, so each asks the environment.
#ifndef SCAN_ACCELERATION_GENERAL_PATH_SWITCH_H
#define SCAN_ACCELERATION_GENERAL_PATH_SWITCH_H

#include <stdlib.h>

/// Set once as the library loads (GeneralPath.c): the byte loops only.
extern int _scan_general_path_only;

static inline int general_path_requested(void) {
    const char *value = getenv("CLAUDE_STREAMING_GENERAL_PATH");
    return value != NULL && value[0] != '\0' && !(value[0] == '0' && value[1] == '\0');
}

#endif
