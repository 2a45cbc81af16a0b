// Only CICUShim includes ICU: this target exists to carry pkg-config's flags for `icu-uc` and
// `icu-i18n` to the shim. Swift never imports it (ICU's functions are macros that rename them
// to versioned symbols, uplrules_open to uplrules_open_72, which Swift cannot import).
#include <unicode/utypes.h>
