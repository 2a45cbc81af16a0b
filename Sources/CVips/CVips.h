// Only CVipsShim includes libvips' headers: this target exists to carry glib's include paths
// (pkg-config's `gobject-2.0`) to the shim, which opens libvips itself when it is first needed
// (vips_functions.h). Swift never imports it.
#include <vips/vips.h>
