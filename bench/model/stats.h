/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stats: what the bench's rule needs to tell two layouts apart when their
 * runs spread: each layout's mean and standard deviation over its runs,
 * and a confidence interval of the difference of two means by Welch's t
 * (unequal variances, Welch-Satterthwaite degrees of freedom).
 *
 * Student's t distribution is computed from the regularized incomplete
 * beta function (a continued fraction, evaluated by the modified Lentz
 * method); its quantile by bisection on the distribution function.  Pure
 * arithmetic: no I/O, no allocation.
 */
#ifndef BENCH_STATS_H
#define BENCH_STATS_H

#include <stddef.h>

/* One layout's runs of one case. */
struct bstat_sample {
	size_t n;
	double mean;
	double sd; /* sample standard deviation (n - 1); 0 for one run */
	double min;
	double max;
};

/* The difference of two means, a - b, and its confidence interval. */
struct bstat_diff {
	double diff;
	double se;  /* standard error of the difference; 0: both samples constant */
	double df;  /* Welch-Satterthwaite degrees of freedom; INFINITY when se is 0 */
	double t;   /* the quantile used: t(df) at (1 + confidence) / 2 */
	double lo;  /* diff - t * se */
	double hi;  /* diff + t * se */
};

/* Mean, sd, min and max of v[0..n-1]; n 0 gives n 0 and NaN figures. */
void bstat_sample_of(const double *v, size_t n, struct bstat_sample *out);

/* Regularized incomplete beta I_x(a, b), a, b > 0, 0 <= x <= 1; NaN outside. */
double bstat_incbeta(double x, double a, double b);

/* Student's t distribution function P(T <= t) for df > 0 degrees of freedom. */
double bstat_t_cdf(double t, double df);

/* Its inverse: the t with P(T <= t) = p, 0 < p < 1; NaN outside. */
double bstat_t_quantile(double p, double df);

/*
 * The two-sided `confidence` (0.95: 95 %) interval of mean(a) - mean(b) by
 * Welch's t.  Each sample needs two runs or more (one run has no spread to
 * judge by): -EINVAL otherwise, and for a confidence outside (0, 1).  When
 * both samples are constant the difference is exact and the interval a
 * point; when one is, the other's spread alone decides (df = its n - 1).
 */
int bstat_welch(const struct bstat_sample *a, const struct bstat_sample *b, double confidence,
		struct bstat_diff *out);

#endif
