/* SPDX-License-Identifier: GPL-2.0 */
/* An #undef inside the header's include guard only (dahdi's voicebus.h):
 * still read on every kernel. */
#ifndef UNDEF_H
#define UNDEF_H

#undef CONFIG_UNDEF_ECREF

#endif
