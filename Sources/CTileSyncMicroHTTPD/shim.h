#ifndef CTILESYNC_MICROHTTPD_SHIM_H
#define CTILESYNC_MICROHTTPD_SHIM_H
#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <microhttpd.h>

/* The socket of a connection: MHD_get_connection_info is variadic, which Swift cannot call. */
static inline int ctilesync_connection_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}

/* What the server keeps for a connection (its socket context, set when libmicrohttpd reports it
   started), and the client's address; NULL when libmicrohttpd does not say. */
static inline void *ctilesync_connection_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info ? info->socket_context : NULL;
}

static inline const struct sockaddr *ctilesync_connection_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info ? info->client_addr : NULL;
}

/* Holds back partial segments of a socket (Linux TCP_CORK, as nginx's tcp_nopush) so that a
   response's head and the start of a file sent after it leave in one segment; false where the
   system has no such option. */
static inline int ctilesync_set_cork(int socket, int on) {
#ifdef TCP_CORK
    return setsockopt(socket, IPPROTO_TCP, TCP_CORK, &on, sizeof on) == 0;
#else
    (void)socket; (void)on;
    return 0;
#endif
}
#endif
