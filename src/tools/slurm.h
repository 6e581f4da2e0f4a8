/* slurm.h — ply match --slurm: writes (never submits) the scripts that run
 * a match's shards as a Slurm job array and merge them in a job that
 * depends on it. See docs/cluster.md. */
#ifndef PLY_SLURM_H
#define PLY_SLURM_H

#include <stdio.h>

#include "../core/game.h"

typedef struct SlurmJob {
    const char *dir;        /* where the scripts and records go (created) */
    int shards;             /* N: array tasks 1..N */
    int cpus;               /* per task: the match's -j */
    const char *ply;        /* the ply binary, absolute */
    const char *cwd;        /* the jobs' working directory */
    char *const *args;      /* ply match's arguments for every shard, */
    int nargs;              /* without --shard, --out, --sprt, --slurm */
    const char *sprt;       /* --sprt value for the merge, or NULL */
} SlurmJob;

/* Writes dir/shard.sbatch, dir/merge.sbatch and dir/submit.sh; dir must
 * not exist or be empty. 0, or -1 with err set. */
int slurm_write(const SlurmJob *j, PlyError *err);

/* Writes s to f quoted for a POSIX shell ('...', a ' as '\\''). */
void shell_quote(FILE *f, const char *s);

#endif
