#define _GNU_SOURCE  /* pipe2 */
#include "csystem.h"

#include <errno.h>
#include <fcntl.h>
#include <mimalloc.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

void tomo_release_free_memory(void) {
    mi_collect(true);
}

/* The self-pipe of the caught signals: the handler only writes, which is safe in a handler. */
static int stop_pipe[2] = {-1, -1};

static void stop_handler(int number) {
    int saved = errno;
    unsigned char byte = (unsigned char)number;
    ssize_t written = write(stop_pipe[1], &byte, 1);
    (void)written;
    errno = saved;
}

int tomo_stop_signals_catch(const int *signals, int count) {
    if (stop_pipe[0] < 0 && pipe2(stop_pipe, O_CLOEXEC | O_NONBLOCK) != 0) return -1;
    /* The read end blocks; the write end must not (a full pipe already holds a signal). */
    int flags = fcntl(stop_pipe[0], F_GETFL);
    if (flags < 0 || fcntl(stop_pipe[0], F_SETFL, flags & ~O_NONBLOCK) != 0) return -1;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = stop_handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigset_t caught;
    sigemptyset(&caught);
    for (int index = 0; index < count; index++) {
        if (sigaction(signals[index], &action, NULL) != 0) return -1;
        sigaddset(&caught, signals[index]);
    }
    /* A process started from a thread that blocks signals (a dispatch worker's) inherits that
       mask: unblocked here, the signals reach this thread's handler instead of staying pending. */
    return pthread_sigmask(SIG_UNBLOCK, &caught, NULL) == 0 ? 0 : -1;
}

int tomo_stop_signals_wait(void) {
    if (stop_pipe[0] < 0) return -1;
    for (;;) {
        unsigned char byte;
        ssize_t got = read(stop_pipe[0], &byte, 1);
        if (got == 1) return byte;
        if (got < 0 && errno == EINTR) continue;
        return -1;
    }
}

int tomo_lower_thread_priority(void) {
    return setpriority(PRIO_PROCESS, 0, 19);
}
