#!/usr/bin/env python3
"""Reference values for the statistics tests, computed independently of lib/stats.c with
the Python standard library only (no scipy, no mpmath). Not run by make test; rerun it when a
reference in tests/unit/test_stats.c or tests/t/t0013-statistics.sh is in doubt.

  stats_reference.py t                 Student-t quantiles: regularized incomplete beta by
                                       tanh-sinh quadrature of its integrand (lib/stats.c
                                       uses a continued fraction), and for whole df the closed
                                       trigonometric series of Abramowitz & Stegun 26.7.3-4
  stats_reference.py mutations         exact coverage of the 95% t interval for normal data
                                       at 3 and 5 runs, correct and with three classic bugs
  stats_reference.py lognormal N REPS  coverage of the 95% t interval for N lognormal runs
                                       of COV 100%, by simulation (Python's Mersenne Twister)
"""
import math
import random
import sys


def ts_integral(g, c):
    """tanh-sinh quadrature of g(u) over [0, c]. The nodes run out to where u underflows, so
    that endpoint singularities as strong as u^-0.75 keep about 1e-15."""
    prev = None
    for level in range(3, 12):
        h = 2.0 ** -level
        tot = 0.0
        n = int(7.0 / h)
        for j in range(-n, n + 1):
            tau = j * h
            s = math.pi / 2 * math.sinh(tau)
            e = math.exp(-2 * abs(s))
            # u = c / (1 + e^(-2s)), written so that neither end cancels or overflows
            u = c * e / (1 + e) if s < 0 else c / (1 + e)
            w = c * (math.pi / 2) * math.cosh(tau) * 2 * e / (1 + e) ** 2
            if u > 0 and w > 0:
                tot += w * g(u)
        tot *= h
        if prev is not None and abs(tot - prev) <= 1e-15 * abs(tot):
            return tot
        prev = tot
    return tot


def log_beta_half(a):
    """log B(a, 1/2). For large a, lgamma(a) - lgamma(a + 1/2) would lose 9 digits near 10^7;
    use Gamma(a + 1/2) / Gamma(a) = sqrt(a) (1 - 1/(8a) + 1/(128a^2) + 5/(1024a^3) - ...)."""
    if a < 100:
        return math.lgamma(a) + math.lgamma(0.5) - math.lgamma(a + 0.5)
    r = math.sqrt(a) * (1 - 1 / (8 * a) + 1 / (128 * a * a) + 5 / (1024 * a ** 3)
                        - 21 / (32768 * a ** 4))
    return math.lgamma(0.5) - math.log(r)


def ibeta_half(a, x, half_first):
    """I_x(a, 1/2) (or I_x(1/2, a) when half_first) for x <= 1/2, by quadrature."""
    lb = log_beta_half(a)
    pa, pb = (0.5, a) if half_first else (a, 0.5)
    return ts_integral(lambda u: math.exp((pa - 1) * math.log(u) + (pb - 1) * math.log1p(-u) - lb), x)


def t_upper(t, df):
    """P(T > t) for t > 0: P(|T| > t) = I_x(df/2, 1/2) with x = df / (df + t^2)."""
    x = df / (df + t * t)
    if x <= 0.5:
        return 0.5 * ibeta_half(df / 2, x, False)
    return 0.5 * (1 - ibeta_half(df / 2, t * t / (df + t * t), True))


def bisect(f, target, increasing):
    lo, hi = 0.0, 1.0
    while (f(hi) < target) == increasing:
        hi *= 2
    for _ in range(300):
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        if (f(mid) < target) == increasing:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def t_quantile(p, df):
    t = bisect(lambda v: t_upper(v, df), min(p, 1 - p), False)
    return t if p > 0.5 else -t


def t_centre_closed(t, nu):
    """P(|T| < t) for whole nu: Abramowitz & Stegun 26.7.3 (odd nu) and 26.7.4 (even nu)."""
    th = math.atan(t / math.sqrt(nu))
    s, c = math.sin(th), math.cos(th)
    if nu % 2 == 1:
        if nu == 1:
            return 2 / math.pi * th
        term = tot = c
        for k in range(3, nu - 1, 2):
            term *= c * c * (k - 1) / k
            tot += term
        return 2 / math.pi * (th + s * tot)
    term = tot = 1.0
    for k in range(2, nu - 1, 2):
        term *= c * c * (k - 1) / k
        tot += term
    return s * tot


def t_quantile_closed(p, nu):
    t = bisect(lambda v: t_centre_closed(v, nu), abs(2 * p - 1), True)
    return t if p > 0.5 else -t


def cmd_t():
    cases = [(0.975, 1), (0.975, 2), (0.975, 3), (0.975, 4), (0.975, 5), (0.975, 7),
             (0.975, 9), (0.975, 10), (0.975, 19), (0.975, 30), (0.995, 10), (0.95, 20),
             (0.975, 1000), (0.975, 1e6), (0.6, 10), (0.025, 3), (0.999, 4), (0.975, 2.5),
             (0.95, 7.3), (0.995, 0.5), (0.9, 1.5), (0.975, 45.67), (0.9995, 5)]
    for p, df in cases:
        line = "p %-7g df %-8g quadrature %.16g" % (p, df, t_quantile(p, df))
        if df == int(df) and df <= 1000:
            line += "  closed form %.16g" % t_quantile_closed(p, int(df))
        print(line)


def cmd_mutations():
    for n in (3, 5):
        t = t_quantile_closed(0.975, n - 1)
        cover = lambda h: t_centre_closed(h, n - 1)
        print("%d runs: correct %.4f, population stddev %.4f, df = n %.4f, sqrt(n - 1) %.4f" %
              (n, cover(t), cover(t * math.sqrt((n - 1) / n)),
               cover(t_quantile_closed(0.975, n)), cover(t * math.sqrt(n / (n - 1)))))


def cmd_lognormal(n, reps):
    s2 = math.log(2)  # COV 100%: sigma^2 = ln(1 + COV^2)
    mu, sg = -s2 / 2, math.sqrt(s2)  # true mean 1
    t = t_quantile_closed(0.975, n - 1)
    rng = random.Random(12345)
    hit = above = below = 0
    for _ in range(reps):
        x = [math.exp(mu + sg * rng.gauss(0, 1)) for _ in range(n)]
        m = sum(x) / n
        h = t * math.sqrt(sum((v - m) ** 2 for v in x) / (n - 1)) / math.sqrt(n)
        if m + h < 1:
            above += 1
        elif m - h > 1:
            below += 1
        else:
            hit += 1
    p = hit / reps
    print("%d runs, %d experiments: coverage %.5f (standard error %.5f); true mean above "
          "ci_high %.5f, below ci_low %.5f" % (n, reps, p, math.sqrt(p * (1 - p) / reps),
                                                above / reps, below / reps))


if __name__ == "__main__":
    if sys.argv[1:2] == ["t"]:
        cmd_t()
    elif sys.argv[1:2] == ["mutations"]:
        cmd_mutations()
    elif sys.argv[1:2] == ["lognormal"] and len(sys.argv) == 4:
        cmd_lognormal(int(sys.argv[2]), int(sys.argv[3]))
    else:
        sys.exit(__doc__)
