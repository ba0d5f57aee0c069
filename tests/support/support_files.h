/*
 * support_files.h - small files the tests write and read back (fixtures
 * written at run time, README / man page / report output read whole).
 */
#ifndef SHARDSCOPE_TEST_SUPPORT_FILES_H
#define SHARDSCOPE_TEST_SUPPORT_FILES_H

#include <stddef.h>

/* Write text to path (created or truncated); fails the running test when
 * the file cannot be opened, written or closed. */
void ts_write_file(const char *path, const char *text);

/* The whole of path, NUL-terminated, in a malloc'd buffer the caller
 * frees; its length (without the NUL) into *len when len is not NULL.
 * Fails the running test, naming path, when it cannot be opened or read
 * (paths are relative to the repository root, where the tests run). */
char *ts_slurp(const char *path, size_t *len);

#endif
