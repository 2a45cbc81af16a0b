#ifndef TOMO_CSYSTEM_H
#define TOMO_CSYSTEM_H

/// Gives the memory the allocator (mimalloc) holds in freed blocks back to the system. For
/// after a large temporary structure is freed.
void tomo_release_free_memory(void);

/// Catches `count` signals from now on: each one that arrives writes its number to a pipe that
/// `tomo_stop_signals_wait` reads, so none is lost, however early it comes. 0, or -1 and errno.
int tomo_stop_signals_catch(const int *signals, int count);

/// Blocks until a caught signal has arrived (or had arrived) and returns its number; -1 when
/// nothing was caught.
int tomo_stop_signals_wait(void);

/// Gives the calling thread the lowest scheduling priority (nice 19; on Linux the nice value
/// is the thread's own): for background work that must not slow the threads serving a person.
/// 0, or -1 and errno. There is no way back without privileges, so only a thread of its own
/// should call it.
int tomo_lower_thread_priority(void);

#endif
