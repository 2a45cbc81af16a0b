#include "tomo_http.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
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
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    if (inet_pton(AF_INET, host, &address.sin_addr) != 1) {
        *error_number = EINVAL;
        return -1;
    }
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        *error_number = errno;
        return -1;
    }
    // Lets a restarted server take its port back while old connections sit in TIME_WAIT; on
    // Linux a port another socket listens on still fails with EADDRINUSE.
    int yes = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    if (bind(fd, (struct sockaddr *)&address, sizeof address) != 0 || listen(fd, 256) != 0) {
        *error_number = errno;
        close(fd);
        return -1;
    }
    return fd;
}

uint16_t tomo_http_bound_port(int socket_fd) {
    struct sockaddr_in address;
    socklen_t length = sizeof address;
    if (getsockname(socket_fd, (struct sockaddr *)&address, &length) != 0) return 0;
    return ntohs(address.sin_port);
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
