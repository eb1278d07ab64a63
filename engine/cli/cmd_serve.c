/* cmd_serve.c - `tiers serve`: a local web board (the page embedded from
 * engine/cli/web/studio.html) and its JSON API (docs/serve.md) over
 * libmicrohttpd.  This file is the HTTP front: the listening socket, the
 * checks every request passes (Host, Origin, token, body size), routing
 * to serve_game.c, and a clean stop on SIGINT or SIGTERM. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#include <microhttpd.h>

#include "dynlib.h"
#include "serve.h"
#include "serve_compare.h"
#include "serve_watch.h"

/* Static so that a cancelled agent still thinking at exit finds it. */
static struct serve serve_state;

/* libmicrohttpd, opened when the server starts (dynlib.h): the other
 * commands start without it and GnuTLS. */
static struct {
    __typeof__(MHD_start_daemon) *start_daemon;
    __typeof__(MHD_stop_daemon) *stop_daemon;
    __typeof__(MHD_create_response_from_buffer) *create_response_from_buffer;
    __typeof__(MHD_add_response_header) *add_response_header;
    __typeof__(MHD_queue_response) *queue_response;
    __typeof__(MHD_destroy_response) *destroy_response;
    __typeof__(MHD_lookup_connection_value) *lookup_connection_value;
    __typeof__(MHD_get_connection_values) *get_connection_values;
} mhd;

static int serve_open_http(const struct cli *c)
{
    /* the ABI of the header it was built with (Debian 12's library) */
    static const char *const files[] = {"libmicrohttpd.so.12", NULL};
    const dynlib_sym syms[] = {
        {"MHD_start_daemon", (void **)&mhd.start_daemon},
        {"MHD_stop_daemon", (void **)&mhd.stop_daemon},
        {"MHD_create_response_from_buffer", (void **)&mhd.create_response_from_buffer},
        {"MHD_add_response_header", (void **)&mhd.add_response_header},
        {"MHD_queue_response", (void **)&mhd.queue_response},
        {"MHD_destroy_response", (void **)&mhd.destroy_response},
        {"MHD_lookup_connection_value", (void **)&mhd.lookup_connection_value},
        {"MHD_get_connection_values", (void **)&mhd.get_connection_values},
    };
    char err[512];
    if (dynlib_load(files, "libmicrohttpd12", syms, (int)(sizeof syms / sizeof *syms), err,
                    sizeof err) == 0)
        return 0;
    cli_error(c, "the HTTP server: %s", err);
    return -1;
}

int serve_random_hex(char *out, int n)
{
    unsigned char raw[64];
    int bytes = (n + 1) / 2;
    if (bytes > (int)sizeof raw || getrandom(raw, (size_t)bytes, 0) != bytes)
        return -1;
    for (int i = 0; i < n; i++)
        out[i] = "0123456789abcdef"[(raw[i / 2] >> (i % 2 ? 0 : 4)) & 15];
    out[n] = '\0';
    return 0;
}

/* ------------------------------------------------------------- options */

int cli_serve_option(struct cli *c, cli_opts bit, const char *arg)
{
    if (bit == CLI_O_PORT) {
        long port;
        if (cli_parse_int(arg, 0, 65535, &port) != 0)
            return cli_usage_error(c, "--port: '%s' is not a port from 0 to 65535", arg);
        c->port = (int)port;
    } else if (bit == CLI_O_BIND) {
        c->bind = arg;
    }
    return -1;
}

/* ------------------------------------------------------------ variants */

static int serve_add_variant(struct serve *S, const char *spec, const char *name,
                             const char *desc)
{
    void *a = realloc(S->variants, (size_t)(S->nvariants + 1) * sizeof *S->variants);
    if (!a)
        return -1;
    S->variants = a;
    struct serve_variant *sv = &S->variants[S->nvariants];
    memset(sv, 0, sizeof *sv);
    sv->spec = strdup(spec);
    sv->name = strdup(name);
    sv->desc = strdup(desc ? desc : "");
    if (!sv->spec || !sv->name || !sv->desc) {
        free(sv->spec);
        free(sv->name);
        free(sv->desc);
        return -1;
    }
    S->nvariants++;
    return 0;
}

static void serve_list_one(const char *name, const char *dir, const char *desc, void *ud)
{
    (void)dir;
    struct serve *S = ud;
    serve_add_variant(S, name, name, desc);
}

/* The variants named on the command line, each loaded once to check it
 * (and to learn its name), or every variant found. */
static int serve_load_variants(struct serve *S, const struct cli *c)
{
    if (c->nargs == 0) {
        tiers_variants_list(c->search, serve_list_one, S);
        if (S->nvariants == 0) {
            cli_error(c, "no variant found to serve");
            return CLI_INPUT;
        }
        return CLI_OK;
    }
    for (int i = 0; i < c->nargs; i++) {
        int code;
        tiers_variant *v = cli_load_variant(c, c->args[i], &code);
        if (!v)
            return code;
        code = cli_check_notation(c, v);
        int bad = code == CLI_OK && serve_add_variant(S, c->args[i], tiers_variant_name(v),
                                                      tiers_variant_description(v));
        tiers_variant_free(v);
        if (code != CLI_OK)
            return code;
        if (bad) {
            cli_error(c, "out of memory");
            return CLI_INTERNAL;
        }
    }
    return CLI_OK;
}

static void serve_free_variants(struct serve *S)
{
    for (int i = 0; i < S->nvariants; i++) {
        free(S->variants[i].spec);
        free(S->variants[i].name);
        free(S->variants[i].desc);
    }
    for (int i = 0; i < S->nvariants; i++)
        free(S->variants[i].error);
    free(S->variants);
}

/* ------------------------------------------------------------ requests */

/* What one request has read so far. */
struct serve_request {
    char *body;
    size_t len;
    int too_big;
};

static enum MHD_Result serve_send(struct MHD_Connection *conn, int status,
                                  const char *type, const void *data, size_t len)
{
    struct MHD_Response *resp =
        mhd.create_response_from_buffer(len, (void *)data, MHD_RESPMEM_MUST_COPY);
    if (!resp)
        return MHD_NO;
    mhd.add_response_header(resp, "Content-Type", type);
    mhd.add_response_header(resp, "Cache-Control", "no-store");
    mhd.add_response_header(resp, "X-Content-Type-Options", "nosniff");
    mhd.add_response_header(resp, "Referrer-Policy", "no-referrer");
    mhd.add_response_header(resp, "X-Frame-Options", "DENY");
    mhd.add_response_header(resp, "Content-Security-Policy",
                            "default-src 'none'; script-src 'unsafe-inline'; "
                            "style-src 'unsafe-inline'; img-src data:; "
                            "connect-src 'self'; frame-ancestors 'none'");
    enum MHD_Result ret = mhd.queue_response(conn, (unsigned)status, resp);
    mhd.destroy_response(resp);
    return ret;
}

static enum MHD_Result serve_send_json(struct MHD_Connection *conn, int status,
                                       json_t *j)
{
    char *text = j ? json_dumps(j, JSON_COMPACT) : NULL;
    enum MHD_Result ret;
    if (!text)
        ret = serve_send(conn, 500, "application/json", "{\"error\":\"out of memory\"}",
                         25);
    else
        ret = serve_send(conn, status, "application/json", text, strlen(text));
    free(text);
    return ret;
}

static enum MHD_Result serve_send_error(struct MHD_Connection *conn, int status,
                                        const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    json_t *j = json_pack("{s:s}", "error", msg);
    enum MHD_Result ret = serve_send_json(conn, status, j);
    json_decref(j);
    return ret;
}

/* Equal strings, compared in a time that does not depend on where they
 * differ. */
static int serve_same(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    unsigned char d = n != m;
    for (size_t i = 0; i < n && i < m; i++)
        d |= (unsigned char)(a[i] ^ b[i]);
    return d == 0;
}

static const char *serve_header(struct MHD_Connection *conn, const char *name)
{
    return mhd.lookup_connection_value(conn, MHD_HEADER_KIND, name);
}

static const char *serve_query(struct MHD_Connection *conn, const char *name)
{
    return mhd.lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND, name);
}

/* The checks before anything is done: 0 to go on, or the status sent. */
static int serve_guard(struct serve *S, struct MHD_Connection *conn, int post,
                       const struct serve_request *rq)
{
    const char *host = serve_header(conn, "Host");
    if (!host || strcmp(host, S->host) != 0)
        return serve_send_error(conn, 403, "Host '%s' is not this server's (%s)",
                                host ? host : "", S->host), 403;
    const char *origin = serve_header(conn, "Origin");
    if (post && origin && strcmp(origin, S->origin) != 0)
        return serve_send_error(conn, 403, "Origin '%s' may not change this server's "
                                "state", origin), 403;
    const char *token = serve_header(conn, "X-Tiers-Token");
    if (!token)
        token = serve_query(conn, "token");
    if (!token || !serve_same(token, S->token))
        return serve_send_error(conn, 403, "%s token: use the address the server "
                                "printed", token ? "wrong" : "no"), 403;
    if (rq->too_big)
        return serve_send_error(conn, 413, "request body over %d bytes",
                                SERVE_MAX_BODY), 413;
    return 0;
}

typedef int (*serve_api_fn)(struct serve *S, json_t *in, struct serve_reply *r);

struct serve_route {
    const char *path;
    int post;
    serve_api_fn fn;
};

static int serve_variants_route(struct serve *S, json_t *in, struct serve_reply *r)
{
    (void)in;
    return serve_api_variants(S, r);
}

static const struct serve_route serve_routes[] = {
    {"/api/variants", 0, serve_variants_route},
    {"/api/session", 1, serve_api_new},
    {"/api/close", 1, serve_api_close},
    {"/api/state", 0, serve_api_state},
    {"/api/moves", 0, serve_api_moves},
    {"/api/move", 1, serve_api_move},
    {"/api/undo", 1, serve_api_undo},
    {"/api/redo", 1, serve_api_redo},
    {"/api/agent", 1, serve_api_agent},
    {"/api/agent/cancel", 1, serve_api_cancel},
    {"/api/position", 0, serve_api_get_position},
    {"/api/position", 1, serve_api_set_position},
    {"/api/record", 0, serve_api_get_record},
    {"/api/record", 1, serve_api_set_record},
    {"/api/reload", 1, serve_api_reload_ack},
    {"/api/position/check", 1, serve_api_position_check},
    {"/api/editor", 0, serve_api_editor},
    {"/api/compare", 1, serve_api_compare},
    {"/api/compare/cancel", 1, serve_api_compare_cancel},
};

/* The answers that are not JSON: a picture and a report. */
typedef char *(*serve_doc_fn)(struct serve *S, json_t *in, struct serve_reply *r);
static const struct {
    const char *path, *type;
    serve_doc_fn fn;
} serve_docs[] = {
    {"/api/svg", "image/svg+xml", serve_api_svg},
    {"/api/compare/report", "text/html; charset=utf-8", serve_api_compare_report},
};

/* A GET's query as a JSON object of strings. */
static enum MHD_Result serve_query_add(void *cls, enum MHD_ValueKind kind,
                                       const char *key, const char *value)
{
    (void)kind;
    if (key && value)
        json_object_set_new(cls, key, json_string(value));
    return MHD_YES;
}

/* The request's input: the body's JSON object (POST) or the query. */
static json_t *serve_input(struct MHD_Connection *conn, int post,
                           const struct serve_request *rq, char *err, size_t size)
{
    if (!post) {
        json_t *in = json_object();
        mhd.get_connection_values(conn, MHD_GET_ARGUMENT_KIND, serve_query_add, in);
        return in;
    }
    json_error_t je;
    json_t *in = json_loadb(rq->body ? rq->body : "", rq->len, 0, &je);
    if (!in) {
        snprintf(err, size, "bad JSON body: line %d, column %d: %s", je.line, je.column,
                 je.text);
        return NULL;
    }
    if (!json_is_object(in)) {
        snprintf(err, size, "bad JSON body: not an object");
        json_decref(in);
        return NULL;
    }
    return in;
}

static enum MHD_Result serve_api(struct serve *S, struct MHD_Connection *conn,
                                 const char *url, int post,
                                 const struct serve_request *rq)
{
    const struct serve_route *route = NULL;
    int doc = -1, path_known = 0;
    for (size_t i = 0; i < sizeof serve_routes / sizeof serve_routes[0]; i++)
        if (strcmp(serve_routes[i].path, url) == 0) {
            path_known = 1;
            if (serve_routes[i].post == post)
                route = &serve_routes[i];
        }
    for (size_t i = 0; i < sizeof serve_docs / sizeof serve_docs[0]; i++)
        if (strcmp(serve_docs[i].path, url) == 0) {
            path_known = 1;
            if (!post)
                doc = (int)i;
        }
    if (!path_known)
        return serve_send_error(conn, 404, "no such endpoint: %s", url);
    if (!route && doc < 0)
        return serve_send_error(conn, 405, "%s does not take %s", url,
                                post ? "POST" : "GET");
    char err[600];
    json_t *in = serve_input(conn, post, rq, err, sizeof err);
    if (!in)
        return serve_send_error(conn, 400, "%s", err);
    struct serve_reply r = {500, NULL};
    enum MHD_Result ret;
    pthread_mutex_lock(&S->lock);
    serve_sweep(S);
    if (!route) {
        char *text = serve_docs[doc].fn(S, in, &r);
        pthread_mutex_unlock(&S->lock);
        ret = text ? serve_send(conn, 200, serve_docs[doc].type, text, strlen(text))
                   : serve_send_json(conn, r.status, r.json);
        free(text);
    } else {
        route->fn(S, in, &r);
        pthread_mutex_unlock(&S->lock);
        ret = serve_send_json(conn, r.status, r.json);
    }
    json_decref(r.json);
    json_decref(in);
    return ret;
}

static enum MHD_Result serve_handle(void *cls, struct MHD_Connection *conn,
                                    const char *url, const char *method,
                                    const char *version, const char *upload,
                                    size_t *upload_size, void **con_cls)
{
    (void)version;
    struct serve *S = cls;
    struct serve_request *rq = *con_cls;
    if (!rq) {
        rq = calloc(1, sizeof *rq);
        if (!rq)
            return MHD_NO;
        *con_cls = rq;
        return MHD_YES;
    }
    if (*upload_size) {
        if (rq->len + *upload_size > SERVE_MAX_BODY) {
            rq->too_big = 1;
        } else {
            char *b = realloc(rq->body, rq->len + *upload_size + 1);
            if (!b)
                return MHD_NO;
            memcpy(b + rq->len, upload, *upload_size);
            rq->body = b;
            rq->len += *upload_size;
            b[rq->len] = '\0';
        }
        *upload_size = 0;
        return MHD_YES;
    }
    int post = strcmp(method, "POST") == 0;
    if (!post && strcmp(method, "GET") != 0)
        return serve_send_error(conn, 405, "method %s not allowed", method);
    if (serve_guard(S, conn, post, rq))
        return MHD_YES;
    if (strcmp(url, "/") == 0 || strcmp(url, "/index.html") == 0) {
        if (post)
            return serve_send_error(conn, 405, "%s does not take POST", url);
        return serve_send(conn, 200, "text/html; charset=utf-8", serve_page,
                          serve_page_size);
    }
    if (strncmp(url, "/api/", 5) != 0)
        return serve_send_error(conn, 404, "no such page: %s", url);
    return serve_api(S, conn, url, post, rq);
}

static void serve_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
                            enum MHD_RequestTerminationCode toe)
{
    (void)cls, (void)conn, (void)toe;
    struct serve_request *rq = *con_cls;
    if (rq) {
        free(rq->body);
        free(rq);
        *con_cls = NULL;
    }
}

/* ------------------------------------------------------------- sockets */

/* The listening socket on addr:port (IPv4 or IPv6); -1 after a message,
 * *code set (2 for a busy port). */
static int serve_listen(const struct cli *c, const char *addr, int port, int *code)
{
    struct sockaddr_storage ss;
    socklen_t sl;
    memset(&ss, 0, sizeof ss);
    struct sockaddr_in *in4 = (struct sockaddr_in *)&ss;
    struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;
    if (inet_pton(AF_INET, addr, &in4->sin_addr) == 1) {
        in4->sin_family = AF_INET;
        in4->sin_port = htons((uint16_t)port);
        sl = sizeof *in4;
    } else if (inet_pton(AF_INET6, addr, &in6->sin6_addr) == 1) {
        in6->sin6_family = AF_INET6;
        in6->sin6_port = htons((uint16_t)port);
        sl = sizeof *in6;
    } else {
        *code = cli_usage_error(c, "--bind: '%s' is not an IPv4 or IPv6 address", addr);
        return -1;
    }
    int fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        cli_error(c, "socket: %s", strerror(errno));
        *code = CLI_INTERNAL;
        return -1;
    }
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(fd, (struct sockaddr *)&ss, sl) != 0 || listen(fd, 64) != 0) {
        int e = errno;
        if (e == EADDRINUSE)
            cli_error(c, "port %d is busy on %s", port, addr);
        else
            cli_error(c, "cannot listen on %s port %d: %s", addr, port, strerror(e));
        *code = CLI_INPUT;
        close(fd);
        return -1;
    }
    return fd;
}

static int serve_bound_port(int fd)
{
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    if (getsockname(fd, (struct sockaddr *)&ss, &sl) != 0)
        return -1;
    if (ss.ss_family == AF_INET)
        return ntohs(((struct sockaddr_in *)&ss)->sin_port);
    return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
}

/* --------------------------------------------------------------- main */

static int serve_run(struct serve *S, const struct cli *c, int fd, sigset_t *stop)
{
    struct MHD_Daemon *d = mhd.start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG, 0, NULL, NULL,
        serve_handle, S, MHD_OPTION_LISTEN_SOCKET, fd, MHD_OPTION_NOTIFY_COMPLETED,
        serve_completed, S, MHD_OPTION_CONNECTION_LIMIT, (unsigned)64,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)60, MHD_OPTION_END);
    if (!d) {
        cli_error(c, "cannot start the HTTP server");
        close(fd);
        return CLI_INTERNAL;
    }
    printf("http://%s/?token=%s\n", S->host, S->token);
    int code = cli_finish_output(c, CLI_OK);
    if (code == CLI_OK) {
        int sig;
        sigwait(stop, &sig);
    }
    mhd.stop_daemon(d);
    close(fd);
    return code;
}

int cmd_serve_run(struct cli *c)
{
    struct serve *S = &serve_state;
    S->c = c;
    S->db = c->db ? c->db : "tiers.db";
    S->idle_seconds = SERVE_IDLE_SECONDS;
    const char *idle = getenv("TIERS_SERVE_IDLE_SECONDS"); /* for the tests */
    if (idle && atof(idle) > 0)
        S->idle_seconds = atof(idle);
    if (serve_open_http(c) < 0)
        return CLI_INTERNAL;
    int code = serve_load_variants(S, c);
    if (code != CLI_OK) {
        serve_free_variants(S);
        return code;
    }
    if (serve_random_hex(S->token, SERVE_ID_CHARS) != 0) {
        cli_error(c, "no random source for the token");
        serve_free_variants(S);
        return CLI_INTERNAL;
    }
    const char *addr = c->bind ? c->bind : "127.0.0.1";
    int fd = serve_listen(c, addr, c->port, &code);
    if (fd < 0) {
        serve_free_variants(S);
        return code;
    }
    int v6 = strchr(addr, ':') != NULL;
    snprintf(S->host, sizeof S->host, "%s%s%s:%d", v6 ? "[" : "", addr, v6 ? "]" : "",
             serve_bound_port(fd));
    snprintf(S->origin, sizeof S->origin, "http://%s", S->host);
    /* The signals are taken by sigwait in this thread alone: blocked
     * before any other thread starts, so every thread inherits the mask. */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    signal(SIGPIPE, SIG_IGN);
    pthread_mutex_init(&S->lock, NULL);
    int watching = serve_watch_start(S) == 0;
    code = serve_run(S, c, fd, &stop);
    if (watching)
        serve_watch_stop(S);
    serve_shutdown(S);
    serve_free_variants(S);
    S->variants = NULL;
    S->nvariants = 0;
    return code;
}
