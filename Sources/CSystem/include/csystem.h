#ifndef TOMO_CSYSTEM_H
#define TOMO_CSYSTEM_H

/// Atomically swaps two paths (Linux renameat2 with RENAME_EXCHANGE): after the call each name
/// points at what the other did, with no moment where either is missing.
/// Returns 0, or -1 with errno set (EINVAL or ENOSYS where the file system cannot do it).
int tomo_exchange_paths(const char *first, const char *second);

#endif
