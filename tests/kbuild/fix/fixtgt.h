/* SPDX-License-Identifier: GPL-2.0 */
/* A header of the module's own that includes nothing: the target's
 * header goes after its guard. */
#ifndef FIXTGT_H
#define FIXTGT_H

struct fixtgt_state {
	struct circ_buf ring;
};

#endif
