// Opens libvips when the shim first needs it (see vips_functions.h).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vips/vips.h>

// Here the pointers are defined and filled: calls are not turned into calls through them.
#define TOMO_VIPS_LOOKING_UP
#include "shim.h"

#define TOMO_DEFINE_POINTER(name) __typeof__(&name) tomo_vips_pointer_##name;
TOMO_VIPS_FUNCTIONS(TOMO_DEFINE_POINTER)
#undef TOMO_DEFINE_POINTER

static pthread_once_t opening = PTHREAD_ONCE_INIT;
/// Set once by open_library; read without opening by tomo_vips_library_is_open.
static int is_open = 0;
/// Why opening failed, when it did.
static char failure[512];

static void open_library(void) {
    // The name Debian's package libvips42 installs, then the development link.
    void *library = dlopen("libvips.so.42", RTLD_LAZY | RTLD_GLOBAL);
    if (!library) {
        // Why the installed name failed says more than why the development link did.
        const char *reason = dlerror();
        snprintf(failure, sizeof failure, "cannot open libvips (%s): install it with `apt-get install libvips42`", reason ? reason : "not found");
        library = dlopen("libvips.so", RTLD_LAZY | RTLD_GLOBAL);
        if (!library) {
            return;
        }
    }
#define TOMO_LOOK_UP(name) \
    tomo_vips_pointer_##name = (__typeof__(&name))dlsym(library, #name); \
    if (!tomo_vips_pointer_##name) { \
        snprintf(failure, sizeof failure, "the libvips found has no %s: install libvips 8.14 or later", #name); \
        return; \
    }
    TOMO_VIPS_FUNCTIONS(TOMO_LOOK_UP)
#undef TOMO_LOOK_UP
    __atomic_store_n(&is_open, 1, __ATOMIC_RELEASE);
}

int tomo_vips_library_open(char **error) {
    pthread_once(&opening, open_library);
    if (__atomic_load_n(&is_open, __ATOMIC_ACQUIRE)) {
        return 0;
    }
    if (error) {
        *error = strdup(failure);
    }
    return -1;
}

int tomo_vips_library_is_open(void) {
    return __atomic_load_n(&is_open, __ATOMIC_ACQUIRE);
}
