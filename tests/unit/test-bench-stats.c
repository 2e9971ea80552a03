/*
 * The bench's statistics (bench/model/stats.c) against known answers:
 * closed forms of the incomplete beta and of Student's t for 1 and 2
 * degrees of freedom, published t quantiles, values of the t distribution
 * function integrated numerically (Simpson's rule, 2 x 10^5 intervals, an
 * independent computation) at non-integer degrees of freedom, and the
 * worked example of Welch's t-test (Wikipedia, "Welch's t-test",
 * example 1: t = -2.46, 24.99 degrees of freedom, p = 0.021); and the
 * bench's rule (bench/model/rule.c) on samples whose verdict follows from
 * those answers.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "rule.h"
#include "stats.h"

#define near(a, b, eps)                                                                    \
	do {                                                                               \
		double a_ = (a), b_ = (b);                                                 \
		if (!(fabs(a_ - b_) <= (eps)))                                              \
			fail_msg("%s = %.15g, want %.15g (within %g)", #a, a_, b_, (double)(eps)); \
	} while (0)

static void incbeta_closed_forms(void **state)
{
	(void)state;
	/* I_x(1, 1) = x; I_x(a, 1) = x^a; I_x(1, b) = 1 - (1 - x)^b */
	near(bstat_incbeta(0.3, 1, 1), 0.3, 1e-14);
	near(bstat_incbeta(0.3, 2.5, 1), pow(0.3, 2.5), 1e-14);
	near(bstat_incbeta(0.8, 1, 3.5), 1 - pow(0.2, 3.5), 1e-14);
	/* symmetric: I_0.5(a, a) = 1/2, also where the symmetry swap is taken */
	near(bstat_incbeta(0.5, 7, 7), 0.5, 1e-14);
	near(bstat_incbeta(0.5, 0.5, 0.5), 0.5, 1e-14);
	/* I_x(a, b) = 1 - I_(1-x)(b, a) */
	near(bstat_incbeta(0.9, 3, 4) + bstat_incbeta(0.1, 4, 3), 1, 1e-14);
	near(bstat_incbeta(0, 2, 3), 0, 0);
	near(bstat_incbeta(1, 2, 3), 1, 0);
	assert_true(isnan(bstat_incbeta(1.5, 2, 3)));
	assert_true(isnan(bstat_incbeta(0.5, 0, 3)));
	assert_true(isnan(bstat_incbeta(NAN, 2, 3)));
}

static void t_cdf_known(void **state)
{
	(void)state;
	/* one degree of freedom (Cauchy): 1/2 + atan(t) / pi */
	near(bstat_t_cdf(1, 1), 0.75, 1e-13);
	near(bstat_t_cdf(3, 1), 0.5 + atan(3) / M_PI, 1e-13);
	near(bstat_t_cdf(-2, 1), 0.5 + atan(-2) / M_PI, 1e-13);
	/* two: 1/2 + t / (2 sqrt(2 + t^2)) */
	near(bstat_t_cdf(1, 2), 0.5 + 1 / (2 * sqrt(3)), 1e-13);
	near(bstat_t_cdf(-4, 2), 0.5 - 4 / (2 * sqrt(18)), 1e-13);
	near(bstat_t_cdf(0, 5), 0.5, 1e-15);
	/* non-integer degrees of freedom, as Welch's are (numerical integration) */
	near(bstat_t_cdf(2.0, 3.5), 0.936930738712, 1e-11);
	near(bstat_t_cdf(1.5, 7.25), 0.912078641938, 1e-11);
	near(bstat_t_cdf(-1.2, 4.5), 0.144738527421, 1e-11);
	near(bstat_t_cdf(0.3, 60), 0.617392962393, 1e-11);
	/* infinitely many: the normal distribution */
	near(bstat_t_cdf(1.959963984540054, INFINITY), 0.975, 1e-13);
	near(bstat_t_cdf(INFINITY, 3), 1, 0);
	near(bstat_t_cdf(-INFINITY, 3), 0, 0);
	assert_true(isnan(bstat_t_cdf(1, 0)));
	assert_true(isnan(bstat_t_cdf(NAN, 3)));
}

static void t_quantile_known(void **state)
{
	(void)state;
	/* tan(pi (p - 1/2)) for one degree of freedom; (2p - 1) / sqrt(2p(1 - p)) for two */
	near(bstat_t_quantile(0.975, 1), tan(M_PI * 0.475), 1e-9);
	near(bstat_t_quantile(0.975, 2), 0.95 / sqrt(2 * 0.975 * 0.025), 1e-11);
	near(bstat_t_quantile(0.025, 2), -0.95 / sqrt(2 * 0.975 * 0.025), 1e-11);
	/* the tables' t(0.975) */
	near(bstat_t_quantile(0.975, 10), 2.228138851986, 1e-11);
	near(bstat_t_quantile(0.975, 30), 2.042272456301, 1e-11);
	near(bstat_t_quantile(0.975, INFINITY), 1.959963984540, 1e-11);
	near(bstat_t_quantile(0.5, 4), 0, 1e-15);
	/* its own inverse at a non-integer df */
	near(bstat_t_cdf(bstat_t_quantile(0.9, 3.3), 3.3), 0.9, 1e-13);
	assert_true(isnan(bstat_t_quantile(0, 3)));
	assert_true(isnan(bstat_t_quantile(1, 3)));
	assert_true(isnan(bstat_t_quantile(0.9, -1)));
}

static void sample_summary(void **state)
{
	static const double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	static const double same[] = { 1e9 + 0.1, 1e9 + 0.1, 1e9 + 0.1 };
	struct bstat_sample s;

	(void)state;
	bstat_sample_of(v, 8, &s);
	assert_int_equal(s.n, 8);
	near(s.mean, 5, 1e-15);
	/* the squared deviations sum to 32: sqrt(32 / 7) */
	near(s.sd, sqrt(32.0 / 7), 1e-15);
	near(s.min, 2, 0);
	near(s.max, 9, 0);
	/* equal values spread exactly nothing, however large */
	bstat_sample_of(same, 3, &s);
	near(s.sd, 0, 0);
	bstat_sample_of(v, 1, &s);
	near(s.sd, 0, 0);
	bstat_sample_of(v, 0, &s);
	assert_int_equal(s.n, 0);
	assert_true(isnan(s.mean));
}

static void welch_worked_example(void **state)
{
	static const double a1[] = { 27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1,
				     21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4 };
	static const double a2[] = { 27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0,
				     24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4 };
	struct bstat_sample a, b;
	struct bstat_diff d;
	double p;

	(void)state;
	bstat_sample_of(a1, 15, &a);
	bstat_sample_of(a2, 15, &b);
	assert_int_equal(bstat_welch(&a, &b, 0.95, &d), 0);
	near(d.diff, 20.82 - 22.986666666666667, 1e-12);
	near(d.diff / d.se, -2.455356398286, 1e-9);
	near(d.df, 24.988529290231, 1e-9);
	p = 2 * bstat_t_cdf(-fabs(d.diff / d.se), d.df);
	near(p, 0.021378001463, 1e-9);
	near(d.t, 2.059586491366, 1e-9);
	near(d.lo, -3.984096267141, 1e-9);
	near(d.hi, -0.349237066192, 1e-9);
}

static void welch_degenerate(void **state)
{
	static const double five[] = { 5, 5, 5 }, four[] = { 4, 4 }, spread[] = { 1, 2, 3, 4 };
	struct bstat_sample a, b, c;
	struct bstat_diff d;

	(void)state;
	bstat_sample_of(five, 3, &a);
	bstat_sample_of(four, 2, &b);
	bstat_sample_of(spread, 4, &c);
	/* both constant: the difference is exact */
	assert_int_equal(bstat_welch(&a, &b, 0.95, &d), 0);
	near(d.diff, 1, 0);
	near(d.lo, 1, 0);
	near(d.hi, 1, 0);
	assert_true(isinf(d.df));
	/* one constant: the other's spread alone, with its n - 1 degrees of freedom */
	assert_int_equal(bstat_welch(&c, &a, 0.95, &d), 0);
	near(d.df, 3, 1e-12);
	near(d.se, sqrt(5.0 / 3 / 4), 1e-15);
	near(d.hi - d.diff, bstat_t_quantile(0.975, 3) * d.se, 1e-12);
	/* one run has no spread to judge by */
	b.n = 1;
	assert_int_equal(bstat_welch(&a, &b, 0.95, &d), -EINVAL);
	assert_int_equal(bstat_welch(&a, &c, 1, &d), -EINVAL);
	assert_int_equal(bstat_welch(&a, &c, 0, &d), -EINVAL);
}

static struct brule_judgement judge(const double *plan, size_t np, const double *peer, size_t nq)
{
	struct bstat_sample a, b;
	struct brule_judgement j;

	bstat_sample_of(plan, np, &a);
	bstat_sample_of(peer, nq, &b);
	brule_judge(&a, &b, &j);
	return j;
}

static void rule_verdicts(void **state)
{
	/* deterministic cases: the difference is exact */
	static const double p128_96[] = { 128.96, 128.96, 128.96 }, p128[] = { 128, 128, 128 };
	/* exactly 0.5 % and 0.4 % more: negligible; 0.6 %: worse */
	static const double r1[] = { 100.5, 100.5 }, r2[] = { 100.4, 100.4 }, r3[] = { 100.6, 100.6 },
			    hundred[] = { 100, 100 };
	/* a spread sample 10 % below its peer, and the same 10 % above */
	static const double below[] = { 90, 92, 88, 91, 89, 90 }, peer[] = { 100, 102, 98, 101, 99, 100 };
	/* runs that spread too much to tell: mean 100 against 100, sd 10 */
	static const double wide[] = { 90, 110, 100, 95, 105 }, wide_peer[] = { 95, 105, 100, 90, 110 };
	struct brule_judgement j;

	(void)state;
	j = judge(p128_96, 3, p128, 3);
	assert_int_equal(j.verdict, BRULE_WORSE);
	near(j.diff_rel, 0.0075, 1e-12);
	near(j.lo_rel, 0.0075, 1e-12);
	j = judge(p128, 3, p128_96, 3);
	assert_int_equal(j.verdict, BRULE_AT_OR_BELOW);
	j = judge(p128, 3, p128, 2);
	assert_int_equal(j.verdict, BRULE_AT_OR_BELOW);
	near(j.hi_rel, 0, 0);
	j = judge(r1, 2, hundred, 2);
	assert_int_equal(j.verdict, BRULE_AT_OR_BELOW);
	j = judge(r2, 2, hundred, 2);
	assert_int_equal(j.verdict, BRULE_AT_OR_BELOW);
	j = judge(r3, 2, hundred, 2);
	assert_int_equal(j.verdict, BRULE_WORSE);
	near(j.lo_rel, 0.006, 1e-12);

	/* 10 % below: the interval, -10 % -/+ t(10) x 0.816 %, lies under zero */
	j = judge(below, 6, peer, 6);
	assert_int_equal(j.verdict, BRULE_AT_OR_BELOW);
	near(j.diff_rel, -0.10, 1e-12);
	near(j.hi_rel, -0.10 + bstat_t_quantile(0.975, 10) * sqrt(2 * 2.0 / 6) / 100, 1e-12);
	j = judge(peer, 6, below, 6);
	assert_int_equal(j.verdict, BRULE_WORSE);

	/* equal means, sd 7.9, five runs each: the interval reaches +11.5 %,
	 * beyond the 10 % margin */
	j = judge(wide, 5, wide_peer, 5);
	assert_int_equal(j.verdict, BRULE_UNDECIDED);
	near(j.diff_rel, 0, 1e-12);
	near(j.hi_rel, bstat_t_quantile(0.975, 8) * sqrt(2 * 62.5 / 5) / 100, 1e-12);
	assert_true(j.hi_rel > BRULE_MARGIN);

	/* one run of either side judges nothing */
	j = judge(p128, 1, p128_96, 3);
	assert_int_equal(j.verdict, BRULE_TOO_FEW_RUNS);
	assert_string_equal(brule_verdict_name(j.verdict), "too few runs");
	assert_string_equal(brule_verdict_name(BRULE_UNDECIDED), "undecided");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(incbeta_closed_forms), cmocka_unit_test(t_cdf_known),
		cmocka_unit_test(t_quantile_known),     cmocka_unit_test(sample_summary),
		cmocka_unit_test(welch_worked_example), cmocka_unit_test(welch_degenerate),
		cmocka_unit_test(rule_verdicts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
