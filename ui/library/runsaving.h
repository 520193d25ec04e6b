#pragma once

#include "run.h"

#include <QString>

#include <functional>

class QWidget;

namespace latprobe {

// Writes `run` to `path` (atomically, as every run file); false with a
// one-line `error` when it cannot.
bool writeRunTo(const Run &run, const QString &path, QString *error = nullptr);

// Save run… and the scenario bar's Save run: asks where (in the folder last
// used, else Documents, under `baseName`-<time>.json), writes the run that
// `run` returns then, and says what went wrong in a dialog. Returns the
// path written, or "" (cancelled or failed).
QString saveRunInteractively(QWidget *parent, const QString &title, const QString &baseName,
                             const std::function<Run()> &run);

} // namespace latprobe
