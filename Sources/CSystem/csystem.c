#include "csystem.h"

#include <malloc.h>

void tomo_release_free_memory(void) {
    malloc_trim(0);
}
