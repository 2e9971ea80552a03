/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The bench's statistics (stats.h): sample summaries, Student's t and
 * Welch's confidence interval of a difference of means.
 */
#include "stats.h"

#include <errno.h>
#include <math.h>

/* The continued fraction below converges in well under this many terms
 * for the (a, b) the t distribution asks for (a = df / 2, b = 1 / 2). */
#define CF_MAX_TERMS 10000
#define CF_EPS 1e-15
/* Lentz's method replaces an exact zero by this, to go on dividing. */
#define CF_TINY 1e-300
#define QUANTILE_STEPS 200

void bstat_sample_of(const double *v, size_t n, struct bstat_sample *out)
{
	double sum = 0, squares = 0;

	out->n = n;
	out->mean = out->sd = out->min = out->max = NAN;
	if (!n)
		return;
	out->min = out->max = v[0];
	for (size_t i = 0; i < n; i++) {
		sum += v[i];
		out->min = fmin(out->min, v[i]);
		out->max = fmax(out->max, v[i]);
	}
	out->mean = sum / (double)n;
	/* two passes: the squares of deviations, not of the values, so that
	 * equal values give exactly 0 and large means lose nothing */
	for (size_t i = 0; i < n; i++)
		squares += (v[i] - out->mean) * (v[i] - out->mean);
	out->sd = n > 1 ? sqrt(squares / (double)(n - 1)) : 0;
}

/* The continued fraction of I_x(a, b) (without its front factor):
 * 1 / (1 + d1 / (1 + d2 / (1 + ...))), with
 *   d(2m+1) = -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1)),
 *   d(2m)   = m (b - m) x / ((a + 2m - 1)(a + 2m)),
 * evaluated front to back by the modified Lentz method. */
static double incbeta_fraction(double x, double a, double b)
{
	double f = CF_TINY, c = f, d = 0;

	for (int i = 0; i < CF_MAX_TERMS; i++) {
		double num, delta;

		if (i == 0) {
			num = 1;
		} else if (i % 2) {
			int m = (i - 1) / 2; /* the term's index: whole on purpose */

			num = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
		} else {
			int m = i / 2;

			num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		}
		d = 1 + num * d;
		if (fabs(d) < CF_TINY)
			d = CF_TINY;
		d = 1 / d;
		c = 1 + num / c;
		if (fabs(c) < CF_TINY)
			c = CF_TINY;
		delta = c * d;
		f *= delta;
		if (fabs(delta - 1) < CF_EPS)
			break;
	}
	return f;
}

/* I_x(a, b) for x below the mean of the beta distribution, where the
 * fraction converges fast */
static double incbeta_below(double x, double a, double b)
{
	double front = exp(a * log(x) + b * log1p(-x) - (lgamma(a) + lgamma(b) - lgamma(a + b))) / a;

	return front * incbeta_fraction(x, a, b);
}

double bstat_incbeta(double x, double a, double b)
{
	if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1))
		return NAN;
	if (x == 0 || x == 1)
		return x;
	/* above the mean, I_x(a, b) = 1 - I_(1-x)(b, a), and 1 - x is below
	 * the mean of beta(b, a) */
	if (x > (a + 1) / (a + b + 2))
		return 1 - incbeta_below(1 - x, b, a);
	return incbeta_below(x, a, b);
}

double bstat_t_cdf(double t, double df)
{
	double tail;

	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(df))
		return 0.5 * erfc(-t / sqrt(2.0));
	if (isinf(t))
		return t > 0 ? 1 : 0;
	/* P(|T| > |t|) = I_x(df / 2, 1 / 2) with x = df / (df + t^2) */
	tail = 0.5 * bstat_incbeta(df / (df + t * t), df / 2, 0.5);
	return t >= 0 ? 1 - tail : tail;
}

double bstat_t_quantile(double p, double df)
{
	double lo = 0, hi = 1, sign = 1;

	if (!(p > 0) || !(p < 1) || !(df > 0))
		return NAN;
	/* t is symmetric: the lower half's quantiles are the upper half's, negated */
	if (p < 0.5) {
		p = 1 - p;
		sign = -1;
	}
	while (bstat_t_cdf(hi, df) < p) {
		lo = hi;
		hi *= 2;
		if (isinf(hi))
			return sign * hi;
	}
	for (int i = 0; i < QUANTILE_STEPS && hi - lo > 1e-15 * hi; i++) {
		double mid = lo + (hi - lo) / 2;

		if (bstat_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return sign * (lo + (hi - lo) / 2);
}

int bstat_welch(const struct bstat_sample *a, const struct bstat_sample *b, double confidence,
		struct bstat_diff *out)
{
	double va, vb, df;

	if (a->n < 2 || b->n < 2 || !(confidence > 0) || !(confidence < 1))
		return -EINVAL;
	va = a->sd * a->sd / (double)a->n;
	vb = b->sd * b->sd / (double)b->n;
	out->diff = a->mean - b->mean;
	out->se = sqrt(va + vb);
	if (out->se == 0) {
		out->df = INFINITY;
		out->t = bstat_t_quantile((1 + confidence) / 2, INFINITY);
		out->lo = out->hi = out->diff;
		return 0;
	}
	df = (va + vb) * (va + vb) /
	     (va * va / (double)(a->n - 1) + vb * vb / (double)(b->n - 1));
	out->df = df;
	out->t = bstat_t_quantile((1 + confidence) / 2, df);
	out->lo = out->diff - out->t * out->se;
	out->hi = out->diff + out->t * out->se;
	return 0;
}
