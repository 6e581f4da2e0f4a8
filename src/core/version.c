/* version.c — the version string (version.h). The Makefile compiles this
 * file with -DPLY_VERSION_INC naming a generated header that defines
 * PLY_VERSION_GIT. */
#include "version.h"

#ifdef PLY_VERSION_INC
#include PLY_VERSION_INC
#endif

const char *ply_version(void)
{
#ifdef PLY_VERSION_GIT
    return PLY_VERSION_BASE "-" PLY_VERSION_GIT;
#else
    return PLY_VERSION_BASE;
#endif
}
