// libmicrohttpd's functions that LocalInstance's HTTPListener calls, each opening libmicrohttpd.so.12 on first
// use (see CLazyLibraries.h).
#include "CLazyLibraries.h"

#if defined(CLAZY_LOAD_ON_FIRST_USE)

#include <stdarg.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <microhttpd.h>

#include "LazyLibrary.h"

#define MHD_FUNCTIONS(X) \
    X(MHD_add_response_header) X(MHD_create_response_from_buffer) X(MHD_create_response_from_fd64) \
    X(MHD_destroy_response) X(MHD_get_connection_info) X(MHD_get_connection_values_n) X(MHD_get_daemon_info) \
    X(MHD_is_feature_supported) X(MHD_lookup_connection_value) X(MHD_queue_response) X(MHD_quiesce_daemon) \
    X(MHD_start_daemon_va) X(MHD_stop_daemon)

#define MHD_FIELD(function) __typeof__(function) *function;
static struct {
    MHD_FUNCTIONS(MHD_FIELD)
} real;

static struct lazy_library microhttpd = {
    .name = "libmicrohttpd", .file = "libmicrohttpd.so.12", .purpose = "`nowflow serve` and the local instance's HTTP listener",
    .package = "libmicrohttpd12", .once = PTHREAD_ONCE_INIT,
};

static void open_microhttpd(void) {
    lazy_library_open(&microhttpd);
    if (microhttpd.problem[0] != '\0') return;
#define MHD_RESOLVE(function) real.function = (__typeof__(function) *)lazy_library_symbol(&microhttpd, #function);
    MHD_FUNCTIONS(MHD_RESOLVE)
}

const char *clazy_microhttpd_problem(void) { return lazy_library_problem(&microhttpd, open_microhttpd); }

/// libmicrohttpd's functions, opening it first if need be.
static inline __typeof__(real) *functions(void) {
    if (clazy_microhttpd_problem() != NULL) lazy_library_fail(&microhttpd);
    return &real;
}

enum MHD_Result MHD_add_response_header(struct MHD_Response *response, const char *header, const char *content) {
    return functions()->MHD_add_response_header(response, header, content);
}

struct MHD_Response *MHD_create_response_from_buffer(size_t size, void *buffer, enum MHD_ResponseMemoryMode mode) {
    return functions()->MHD_create_response_from_buffer(size, buffer, mode);
}

struct MHD_Response *MHD_create_response_from_fd64(uint64_t size, int fd) {
    return functions()->MHD_create_response_from_fd64(size, fd);
}

void MHD_destroy_response(struct MHD_Response *response) { functions()->MHD_destroy_response(response); }

// No information type this package asks for takes an argument after the type (libmicrohttpd reads none).
const union MHD_ConnectionInfo *MHD_get_connection_info(
    struct MHD_Connection *connection, enum MHD_ConnectionInfoType type, ...) {
    return functions()->MHD_get_connection_info(connection, type);
}

int MHD_get_connection_values_n(
    struct MHD_Connection *connection, enum MHD_ValueKind kind, MHD_KeyValueIteratorN iterator, void *context) {
    return functions()->MHD_get_connection_values_n(connection, kind, iterator, context);
}

const union MHD_DaemonInfo *MHD_get_daemon_info(struct MHD_Daemon *daemon, enum MHD_DaemonInfoType type, ...) {
    return functions()->MHD_get_daemon_info(daemon, type);
}

enum MHD_Result MHD_is_feature_supported(enum MHD_FEATURE feature) {
    return functions()->MHD_is_feature_supported(feature);
}

const char *MHD_lookup_connection_value(
    struct MHD_Connection *connection, enum MHD_ValueKind kind, const char *key) {
    return functions()->MHD_lookup_connection_value(connection, kind, key);
}

enum MHD_Result MHD_queue_response(
    struct MHD_Connection *connection, unsigned int status, struct MHD_Response *response) {
    return functions()->MHD_queue_response(connection, status, response);
}

MHD_socket MHD_quiesce_daemon(struct MHD_Daemon *daemon) { return functions()->MHD_quiesce_daemon(daemon); }

struct MHD_Daemon *MHD_start_daemon_va(
    unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback accept, void *acceptContext,
    MHD_AccessHandlerCallback handler, void *handlerContext, va_list options) {
    return functions()->MHD_start_daemon_va(flags, port, accept, acceptContext, handler, handlerContext, options);
}

void MHD_stop_daemon(struct MHD_Daemon *daemon) { functions()->MHD_stop_daemon(daemon); }

#else

const char *clazy_microhttpd_problem(void) { return 0; }

#endif
