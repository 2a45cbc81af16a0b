#ifndef TOMO_CSYSTEM_H
#define TOMO_CSYSTEM_H

/// Gives the memory glibc holds in freed blocks back to the system (malloc_trim, which Swift's
/// Glibc module does not export). For after a large temporary structure is freed.
void tomo_release_free_memory(void);

#endif
