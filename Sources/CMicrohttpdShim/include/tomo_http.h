#ifndef TOMO_HTTP_H
#define TOMO_HTTP_H

#include <stdint.h>
#include <sys/types.h>
#include <microhttpd.h>

/// Fixed-argument wrappers around libmicrohttpd, whose start function is variadic (Swift cannot
/// call it) and whose keep-alive and raw-URI handling need C-side bookkeeping per request.

/// Called twice per request, with the request line's method, version ("HTTP/1.1") and URI exactly
/// as the client sent it (path and query, no percent-decoding).
///
/// First with `head_only` 1, as soon as the headers have arrived: the handler may refuse the
/// request there by queuing a response (MHD then sends it, never reads the body, never calls
/// again, and closes the connection), or return MHD_YES without one. Then, unless it refused,
/// with `head_only` 0 once the body (which is dropped) is in: it must queue a response, and the
/// connection stays open for the next request.
typedef enum MHD_Result (*tomo_http_handler)(void *context, struct MHD_Connection *connection,
                                             const char *method, const char *version,
                                             const char *raw_uri, int head_only);

/// A running daemon with the handler it calls.
typedef struct tomo_http_server tomo_http_server;

/// Opens a listening TCP socket on an IPv4 or IPv6 address ("127.0.0.1", "::1") and port (0:
/// any free port); "::" takes IPv4 connections too. Returns the socket, or -1 with
/// *error_number set (errno; EINVAL when host is no address).
int tomo_http_listen(const char *host, uint16_t port, int *error_number);

/// The port a listening socket is bound to, or 0 when it cannot be read.
uint16_t tomo_http_bound_port(int socket_fd);

/// Writes the first address of `family` (AF_INET or AF_INET6) of an interface that is up and
/// not loopback into `buffer` (IPv6 link-local addresses, which need a zone, are skipped).
/// Returns 0, or -1 when there is none.
int tomo_http_interface_address(int family, char *buffer, size_t size);

/// Starts serving on a socket from tomo_http_listen, one thread per connection (so a handler
/// that streams slowly never stalls other clients). The daemon owns the socket from then on.
/// Returns NULL with *error_number set when it cannot start (the socket is then closed).
tomo_http_server *tomo_http_start(int socket_fd, tomo_http_handler handler, void *context,
                                  unsigned int idle_timeout_seconds, int *error_number);

/// Stops the daemon: closes every connection, joins its threads, frees the server.
void tomo_http_stop(tomo_http_server *server);

/// Writes to a socket whose peer has gone must fail with EPIPE, not kill the process.
void tomo_http_ignore_sigpipe(void);

/// Values of macros Swift does not import.
extern const uint64_t tomo_http_size_unknown;
extern const ssize_t tomo_http_end_of_stream;

#endif
