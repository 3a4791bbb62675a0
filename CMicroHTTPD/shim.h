#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <microhttpd.h>

/// MHD_get_daemon_info is variadic and cannot be imported; this wrapper returns the bound port.
static inline uint16_t cmhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

/// MHD_get_connection_info is variadic too: the connection's socket, or -1.
static inline int cmhd_connection_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}

/// The connection's socket context (what the connection notification callback stored), or NULL.
static inline void *cmhd_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info ? info->socket_context : NULL;
}

/// The connection's peer address as text (`127.0.0.1`, `::1`) in `buffer`; 0, or -1 when it has none.
static inline int cmhd_client_address(struct MHD_Connection *connection, char *buffer, socklen_t size) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return -1;
    const struct sockaddr *address = info->client_addr;
    const void *bytes = NULL;
    if (address->sa_family == AF_INET) bytes = &((const struct sockaddr_in *)(const void *)address)->sin_addr;
    if (address->sa_family == AF_INET6) bytes = &((const struct sockaddr_in6 *)(const void *)address)->sin6_addr;
    if (bytes == NULL || inet_ntop(address->sa_family, bytes, buffer, size) == NULL) return -1;
    return 0;
}

/// Whether this libmicrohttpd serves TLS (it was built with GnuTLS).
static inline int cmhd_supports_tls(void) { return MHD_is_feature_supported(MHD_FEATURE_TLS) == MHD_YES; }

/// The connection's GnuTLS session (a `gnutls_session_t`), or NULL on a plain HTTP connection.
static inline void *cmhd_tls_session(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_GNUTLS_SESSION);
    return info ? info->tls_session : NULL;
}
