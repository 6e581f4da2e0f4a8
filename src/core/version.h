/* version.h — Ply's version string, defined once: `git describe --always
 * --dirty` at build time (the Makefile writes it), else PLY_VERSION_BASE. */
#ifndef PLY_VERSION_H
#define PLY_VERSION_H

#define PLY_VERSION_BASE "0.1"

/* "0.1-123-gabcdef0-dirty" or the like; never NULL. */
const char *ply_version(void);

#endif
