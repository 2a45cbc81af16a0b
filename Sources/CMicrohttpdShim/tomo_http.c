#include "tomo_http.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

const uint64_t tomo_http_size_unknown = MHD_SIZE_UNKNOWN;
const ssize_t tomo_http_end_of_stream = MHD_CONTENT_READER_END_OF_STREAM;

struct tomo_http_server {
    struct MHD_Daemon *daemon;
    tomo_http_handler handler;
    void *context;
};

/// Per-request state, created by the URI log callback (the only place MHD shows the raw URI).
struct tomo_http_request {
    char *raw_uri;
    int headers_seen;
};

int tomo_http_listen(const char *host, uint16_t port, int *error_number) {
    struct sockaddr_storage address;
    socklen_t length;
    memset(&address, 0, sizeof address);
    struct sockaddr_in *ipv4 = (struct sockaddr_in *)&address;
    struct sockaddr_in6 *ipv6 = (struct sockaddr_in6 *)&address;
    if (inet_pton(AF_INET, host, &ipv4->sin_addr) == 1) {
        ipv4->sin_family = AF_INET;
        ipv4->sin_port = htons(port);
        length = sizeof *ipv4;
    } else if (inet_pton(AF_INET6, host, &ipv6->sin6_addr) == 1) {
        ipv6->sin6_family = AF_INET6;
        ipv6->sin6_port = htons(port);
        length = sizeof *ipv6;
    } else {
        *error_number = EINVAL;
        return -1;
    }
    int fd = socket(address.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        *error_number = errno;
        return -1;
    }
    // Lets a restarted server take its port back while old connections sit in TIME_WAIT; on
    // Linux a port another socket listens on still fails with EADDRINUSE.
    int yes = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    // "::" answers IPv4 clients as well, whatever the system's default (net.ipv6.bindv6only):
    // the address printed for it may be an IPv4 one.
    int no = 0;
    if (address.ss_family == AF_INET6) setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &no, sizeof no);
    if (bind(fd, (struct sockaddr *)&address, length) != 0 || listen(fd, 256) != 0) {
        *error_number = errno;
        close(fd);
        return -1;
    }
    return fd;
}

uint16_t tomo_http_bound_port(int socket_fd) {
    struct sockaddr_storage address;
    socklen_t length = sizeof address;
    if (getsockname(socket_fd, (struct sockaddr *)&address, &length) != 0) return 0;
    if (address.ss_family == AF_INET6) return ntohs(((struct sockaddr_in6 *)&address)->sin6_port);
    return ntohs(((struct sockaddr_in *)&address)->sin_port);
}

int tomo_http_interface_address(int family, char *buffer, size_t size) {
    struct ifaddrs *interfaces;
    if (getifaddrs(&interfaces) != 0) return -1;
    int found = -1;
    for (struct ifaddrs *entry = interfaces; entry != NULL && found != 0; entry = entry->ifa_next) {
        if (entry->ifa_addr == NULL || entry->ifa_addr->sa_family != family) continue;
        if (!(entry->ifa_flags & IFF_UP) || (entry->ifa_flags & IFF_LOOPBACK)) continue;
        const void *bytes;
        if (family == AF_INET) {
            bytes = &((struct sockaddr_in *)entry->ifa_addr)->sin_addr;
        } else {
            const struct in6_addr *address = &((struct sockaddr_in6 *)entry->ifa_addr)->sin6_addr;
            if (IN6_IS_ADDR_LINKLOCAL(address)) continue;
            bytes = address;
        }
        if (inet_ntop(family, bytes, buffer, (socklen_t)size) != NULL) found = 0;
    }
    freeifaddrs(interfaces);
    return found;
}

static void *remember_raw_uri(void *cls, const char *uri, struct MHD_Connection *connection) {
    (void)cls;
    (void)connection;
    struct tomo_http_request *request = calloc(1, sizeof *request);
    if (request != NULL) request->raw_uri = strdup(uri);
    return request;
}

static void forget_request(void *cls, struct MHD_Connection *connection, void **request_slot,
                           enum MHD_RequestTerminationCode code) {
    (void)cls;
    (void)connection;
    (void)code;
    struct tomo_http_request *request = *request_slot;
    if (request != NULL) {
        free(request->raw_uri);
        free(request);
    }
    *request_slot = NULL;
}

/// Leaves escapes as they are, so the handler decodes them exactly once and sees "%00" and
/// "%2f" instead of a truncated or re-split path.
static size_t keep_escapes(void *cls, struct MHD_Connection *connection, char *text) {
    (void)cls;
    (void)connection;
    return strlen(text);
}

static enum MHD_Result access_handler(void *cls, struct MHD_Connection *connection,
                                      const char *url, const char *method, const char *version,
                                      const char *upload_data, size_t *upload_data_size,
                                      void **request_slot) {
    (void)url;
    (void)upload_data;
    struct tomo_http_request *request = *request_slot;
    if (request == NULL || request->raw_uri == NULL) return MHD_NO;  // out of memory
    struct tomo_http_server *server = cls;
    // Answering on the first call (before MHD knows whether a body follows) makes MHD close
    // the connection: right for a refused request, whose framing or host cannot be trusted.
    // Answering on a later call keeps the connection alive.
    if (!request->headers_seen) {
        request->headers_seen = 1;
        return server->handler(server->context, connection, method, version, request->raw_uri, 1);
    }
    if (*upload_data_size != 0) {  // a body is never used: drop it
        *upload_data_size = 0;
        return MHD_YES;
    }
    return server->handler(server->context, connection, method, version, request->raw_uri, 0);
}

/* How many connections the server holds at once: libmicrohttpd's own limit (FD_SETSIZE - 4),
   but never more than the descriptors the process may open less a quarter of them, and at
   least 48, kept for the preview itself (its watcher, its stored files, the files a rebuild
   reads). At the limit it stops accepting (callers wait in the listen queue); past the
   descriptors, accept failed at once, again and again, on a full core, and the rebuilds found
   no descriptor to read a file. */
static unsigned int connection_limit(void) {
    unsigned int limit = FD_SETSIZE - 4;
    struct rlimit files;
    if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur != RLIM_INFINITY) {
        rlim_t kept = files.rlim_cur / 4 > 48 ? files.rlim_cur / 4 : 48;
        rlim_t room = files.rlim_cur > kept ? files.rlim_cur - kept : 1;
        if (room < limit) limit = (unsigned int)room;
    }
    return limit;
}

tomo_http_server *tomo_http_start(int socket_fd, tomo_http_handler handler, void *context,
                                  unsigned int idle_timeout_seconds, int *error_number) {
    struct tomo_http_server *server = calloc(1, sizeof *server);
    if (server == NULL) {
        *error_number = ENOMEM;
        close(socket_fd);
        return NULL;
    }
    server->handler = handler;
    server->context = context;
    errno = 0;
    server->daemon = MHD_start_daemon(
        MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO,
        0, NULL, NULL, access_handler, server,
        MHD_OPTION_LISTEN_SOCKET, (MHD_socket)socket_fd,
        MHD_OPTION_URI_LOG_CALLBACK, remember_raw_uri, NULL,
        MHD_OPTION_NOTIFY_COMPLETED, forget_request, NULL,
        MHD_OPTION_UNESCAPE_CALLBACK, keep_escapes, NULL,
        MHD_OPTION_CONNECTION_TIMEOUT, idle_timeout_seconds,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit(),
        MHD_OPTION_END);
    if (server->daemon == NULL) {
        *error_number = errno != 0 ? errno : EIO;
        close(socket_fd);
        free(server);
        return NULL;
    }
    return server;
}

void tomo_http_stop(tomo_http_server *server) {
    if (server == NULL) return;
    MHD_stop_daemon(server->daemon);
    free(server);
}

void tomo_http_ignore_sigpipe(void) {
    signal(SIGPIPE, SIG_IGN);
}
