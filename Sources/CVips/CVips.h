// Only CVipsShim includes libvips: this target exists to carry pkg-config's flags for `vips`
// (glib's include paths, -lvips -lgobject-2.0 -lglib-2.0) to the shim. Swift never imports it.
#include <vips/vips.h>
