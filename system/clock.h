/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef STRIPEPLAN_CLOCK_H
#define STRIPEPLAN_CLOCK_H

/* The one clock: CLOCK_MONOTONIC in seconds, for timings and bounded waits. */
double sp_now_seconds(void);

#endif
