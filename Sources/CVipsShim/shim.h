// What the shim's source files share; not part of the interface Swift sees.
#ifndef TOMO_VIPS_SHIM_H
#define TOMO_VIPS_SHIM_H

#include <vips/vips.h>
#include "tomo_vips.h"
#include "vips_functions.h"

/// Opens libvips and looks up every function of vips_functions.h, once per process; 0 when
/// they are all there, otherwise -1 and why in `*error` (to release with tomo_vips_free, which
/// never needs libvips for it). The shim's entry points call it before anything else.
int tomo_vips_library_open(char **error);

/// Whether tomo_vips_library_open has succeeded (it is not tried here): for the calls that
/// have no error to give (freeing memory, a thread's buffers).
int tomo_vips_library_is_open(void);

/// Runs `operation` (0 = success) so that on failure `*error` holds this call's reason alone
/// (see the lock in tomo_vips.c).
int tomo_run_isolating_errors(int (*operation)(void *), void *call, char **error);

static inline VipsImage *as_vips(const TomoVipsImage *image) {
    return (VipsImage *)image;
}

#endif
