// What the shim's source files share; not part of the interface Swift sees.
#ifndef TOMO_VIPS_SHIM_H
#define TOMO_VIPS_SHIM_H

#include <vips/vips.h>
#include "tomo_vips.h"

/// Runs `operation` (0 = success) so that on failure `*error` holds this call's reason alone
/// (see the lock in tomo_vips.c).
int tomo_run_isolating_errors(int (*operation)(void *), void *call, char **error);

static inline VipsImage *as_vips(const TomoVipsImage *image) {
    return (VipsImage *)image;
}

#endif
