# Reference values for packages/domain/src/estimation (issue 31, decision 050).
# Run once on Debian's r-base with r-cran-lme4 and r-cran-jsonlite:
#   Rscript packages/domain/test-data/estimation/make-fixtures.R
# It writes fixtures.json next to this script; the tests read that file and need no R.
suppressPackageStartupMessages({ library(lme4); library(jsonlite) })
here <- function() {
  a <- commandArgs(trailingOnly = FALSE)
  f <- sub("^--file=", "", a[grep("^--file=", a)])
  if (length(f)) dirname(normalizePath(f)) else "."
}

# ---- datasets: data frames of subject, sample, replicate, value (NA = missing), group ----
balanced <- local({
  v <- list(A = list(c(9, 11), c(12, 12), c(13, 15)),
            B = list(c(20, 22), c(19, 21), c(25, 25)),
            C = list(c(15, 17), c(16, 18), c(18, 18)))
  do.call(rbind, lapply(names(v), function(s) do.call(rbind, lapply(1:3, function(j)
    data.frame(subject = s, sample = as.character(j), replicate = 1:2, value = v[[s]][[j]], group = NA)))))
})

set.seed(31)
simulate <- function(n_subj, n_samp, mean = 100, cvg = 0.15, cvi = 0.08, cva = 0.04, prefix = "S", group = NA) {
  do.call(rbind, lapply(seq_len(n_subj), function(i) {
    mu <- mean * (1 + cvg * rnorm(1))
    do.call(rbind, lapply(seq_len(n_samp), function(j) {
      x <- mu * (1 + cvi * rnorm(1))
      data.frame(subject = sprintf("%s%02d", prefix, i), sample = as.character(j), replicate = 1:2,
                 value = round(x * (1 + cva * rnorm(2)), 3), group = group)
    }))
  }))
}

unbalanced <- local({
  d <- simulate(12, 6)
  drop <- d$subject %in% c("S02", "S07") & d$sample %in% c("5", "6")    # fewer samples
  d <- d[!drop, ]
  d <- d[!(d$subject == "S04" & d$sample == "3" & d$replicate == 2), ]  # single replicates
  d <- d[!(d$subject == "S09" & d$sample == "1" & d$replicate == 2), ]
  d$value[d$subject == "S05" & d$sample == "2" & d$replicate == 1] <- NA # missing results
  d$value[d$subject == "S11" & d$sample == "4" & d$replicate == 2] <- NA
  d
})

outliers <- local({
  d <- simulate(14, 5, prefix = "P")
  # replicate outlier: one pair far apart
  d$value[d$subject == "P03" & d$sample == "2" & d$replicate == 2] <- 160
  # within-subject outlier: one subject whose samples swing widely
  k <- d$subject == "P06"
  d$value[k] <- d$value[k] * rep(c(0.6, 1.5, 0.7, 1.45, 0.9), each = 2)
  # Reed: one subject whose mean is far above the rest (shifted, so its replicate variances stay)
  k <- d$subject == "P10"
  d$value[k] <- d$value[k] + 150
  d
})
outliers_kept <- outliers[!(outliers$subject == "P03" & outliers$sample == "2") &
                          !(outliers$subject %in% c("P06", "P10")), ]

grouped <- rbind(simulate(8, 5, mean = 80, prefix = "F", group = "F"),
                 simulate(9, 5, mean = 110, prefix = "M", group = "M"))

# ---- reference computations ----
nested <- function(d) {
  d <- d[!is.na(d$value), ]
  d$subject <- factor(d$subject); d$ss <- factor(paste(d$subject, d$sample))
  fit <- aov(value ~ subject + subject:ss, data = d)   # sequential SS: subjects, samples within subjects
  tab <- summary(fit)[[1]]
  ms <- tab[["Mean Sq"]]; df <- tab[["Df"]]
  # Sokal & Rohlf, Biometry 3rd ed., Box 10.4, written independently of the TypeScript
  nij <- as.vector(table(d$ss)[table(d$ss) > 0])
  sub_of <- sapply(split(as.character(d$subject), d$ss), `[`, 1)
  sub_of <- sub_of[names(sub_of) %in% as.character(unique(d$ss))]
  nij <- as.vector(table(d$ss)[names(sub_of)])
  ni <- tapply(nij, sub_of, sum)
  N <- nrow(d)
  s1 <- sum(tapply(nij^2, sub_of, sum) / ni)
  n0 <- (N - s1) / df[2]; n0p <- (s1 - sum(nij^2) / N) / df[1]; n0pp <- (N - sum(ni^2) / N) / df[1]
  vw <- (ms[2] - ms[3]) / n0; vb <- (ms[1] - ms[3] - n0p * vw) / n0pp
  reml <- as.data.frame(VarCorr(lmer(value ~ 1 + (1 | subject / ss), data = d, REML = TRUE)))
  list(grand_mean = mean(d$value),
       ms = ms, df = df, n0 = n0, n0_prime = n0p, n0_double_prime = n0pp,
       components = list(analytical = ms[3], within = vw, between = vb),
       reml = list(analytical = reml$vcov[reml$grp == "Residual"],
                   within = reml$vcov[reml$grp == "ss:subject"],
                   between = reml$vcov[reml$grp == "subject"]))
}
cv_anova <- function(d) {
  d <- d[!is.na(d$value), ]
  d$value <- d$value / ave(d$value, d$subject)
  nested(d)
}
checks <- function(d) {
  d <- d[!is.na(d$value), ]
  sm <- aggregate(value ~ subject + sample, data = d, FUN = mean)
  per_subject <- lapply(split(sm$value, sm$subject), function(v)
    if (length(v) >= 3) { t <- shapiro.test(v); list(w = unname(t$statistic), p = t$p.value) } else NULL)
  subj_means <- tapply(sm$value, sm$subject, mean)
  sw <- shapiro.test(subj_means)
  swl <- shapiro.test(log(subj_means))
  bt <- bartlett.test(sm$value, factor(sm$subject))
  time <- aggregate(value ~ sample, data = sm, FUN = mean)
  time <- time[order(as.numeric(time$sample)), ]
  reg <- lm(value ~ seq_along(value), data = time)
  ci <- confint(reg, level = 0.95)[2, ]
  list(shapiro_per_subject = per_subject,
       shapiro_subject_means = list(w = unname(sw$statistic), p = sw$p.value),
       shapiro_subject_means_log = list(w = unname(swl$statistic), p = swl$p.value),
       bartlett = list(k_squared = unname(bt$statistic), df = unname(bt$parameter), p = bt$p.value),
       steady_state = list(slope = unname(coef(reg)[2]), ci = unname(ci),
                           p = summary(reg)$coefficients[2, 4]))
}
rows <- function(d) lapply(seq_len(nrow(d)), function(i) {
  r <- list(subject = d$subject[i], sample = d$sample[i], replicate = d$replicate[i],
            value = if (is.na(d$value[i])) NULL else d$value[i])
  if (!is.na(d$group[i])) r$group <- d$group[i]
  r
})
case <- function(name, d, kept = d, extra = list()) c(list(
  name = name, rows = rows(d), classic = nested(kept), cv_anova = cv_anova(kept), checks = checks(kept)), extra)

shapiro_cases <- list(c(2.1, 3.4, 1.9), c(1, 2, 4, 8), c(5.1, 4.9, 5.3, 6.2, 4.4),
                      c(10, 11, 13, 9, 12, 30), round(rnorm(11), 4), round(rexp(12), 4),
                      round(rnorm(25), 4), round(rlnorm(60), 4), round(runif(200), 4))
dist <- list()
for (p in c(0.005, 0.025, 0.05, 0.5, 0.95, 0.975, 0.995)) for (df in c(1, 2, 3, 7, 19.5, 60, 500)) {
  dist[[length(dist) + 1]] <- list(p = p, df = df, d2 = df * 2 + 1, chisq = qchisq(p, df), t = qt(p, df),
                                   f = qf(p, df, df * 2 + 1), norm = qnorm(p))
}
cochran <- lapply(list(c(2, 0.05), c(5, 0.05), c(10, 0.05), c(20, 0.05), c(10, 0.01)), function(a) {
  k <- a[1]; alpha <- a[2]
  list(k = k, df = 1, alpha = alpha, critical = 1 / (1 + (k - 1) / qf(1 - alpha / k, 1, k - 1)))
})

out <- list(
  generated_by = paste(R.version.string, "; lme4", as.character(packageVersion("lme4"))),
  cases = list(
    case("balanced", balanced),
    case("unbalanced", unbalanced),
    case("outliers", outliers, outliers_kept,
         list(expected_excluded = list(list(step = "replicate_cochran", subject = "P03", sample = "2"),
                                       list(step = "sample_cochran", subject = "P06"),
                                       list(step = "reed", subject = "P10")))),
    case("grouped", grouped, grouped, list(strata = list(
      F = nested(grouped[grouped$group == "F", ]), M = nested(grouped[grouped$group == "M", ]))))),
  shapiro = lapply(shapiro_cases, function(x) { t <- shapiro.test(x); list(x = x, w = unname(t$statistic), p = t$p.value) }),
  distributions = dist,
  normal_cdf = lapply(seq(-6, 6, by = 0.5), function(z) list(z = z, p = pnorm(z))),
  cochran = cochran)
writeLines(toJSON(out, auto_unbox = TRUE, digits = NA, null = "null", pretty = FALSE),
           file.path(here(), "fixtures.json"))
