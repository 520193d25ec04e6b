#pragma once

// The part of libtracefs (1.6) that kerneltracebuffer.cpp uses. tracefs.h does
// not compile as C++ (its inline tracefs_hist_start() passes an int for an
// enum), so C++ includes this instead; tracefsapi.c includes both, and the C
// compiler checks that every declaration here matches the library's.

#include <event-parse.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

// libtraceevent's reader of a ring buffer's page; its header has no
// extern "C" of its own.
#include <kbuffer.h>

struct tracefs_instance;

const char *tracefs_tracing_dir(void);
char **tracefs_instances(const char *regex);
void tracefs_list_free(char **list);
struct tracefs_instance *tracefs_instance_alloc(const char *tracing_dir, const char *name);
struct tracefs_instance *tracefs_instance_create(const char *name);
bool tracefs_instance_is_new(struct tracefs_instance *instance);
int tracefs_instance_destroy(struct tracefs_instance *instance);
void tracefs_instance_free(struct tracefs_instance *instance);
int tracefs_trace_on(struct tracefs_instance *instance);
int tracefs_trace_off(struct tracefs_instance *instance);
int tracefs_instance_file_write(struct tracefs_instance *instance, const char *file,
                                const char *str);
int tracefs_instance_set_affinity(struct tracefs_instance *instance, const char *cpu_str);
int tracefs_instance_set_buffer_size(struct tracefs_instance *instance, size_t size, int cpu);
ssize_t tracefs_instance_get_buffer_size(struct tracefs_instance *instance, int cpu);
int tracefs_event_enable(struct tracefs_instance *instance, const char *system, const char *event);
char *tracefs_instance_file_read(struct tracefs_instance *instance, const char *file, int *psize);
char **tracefs_system_events(const char *tracing_dir, const char *system);
char *tracefs_event_file_read(struct tracefs_instance *instance, const char *system,
                              const char *event, const char *file, int *psize);
int tracefs_instance_file_open(struct tracefs_instance *instance, const char *file, int mode);

// tracefs_option_enable(instance, TRACEFS_OPTION_OVERWRITE): the enum is tracefs.h's.
int latprobe_tracefs_overwrite(struct tracefs_instance *instance);

#ifdef __cplusplus
}
#endif
