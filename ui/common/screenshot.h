#pragma once

#include <QImage>
#include <QString>
#include <QStringList>

#include <string>
#include <vector>

class QDateTime;
class QFont;
class QPalette;
class QPixmap;

namespace latprobe {

struct SystemInfo;

// What a screenshot says about itself, so that it stands alone in a mail:
// latprobe version, kernel, CPUs, scheduler, active loads, local time; and,
// when the phase on screen has misses the flight recorder explained, who
// delayed them (delayersLine()) on a line of its own.
QString screenshotCaption(const SystemInfo &system, const std::vector<std::string> &loads,
                          const QDateTime &when, const std::string &delayers = {});

// The same for the Compare window: the runs it lines up instead of loads,
// and an A/B's verdicts (variantHeadlines()), a line each. An A/B's
// `labels` are its variants ("off (autogroup=0)"), and `files` its run's.
enum class CaptionOf { Runs, Variants };
QString compareCaption(const std::vector<std::string> &labels, const QStringList &files,
                       const QDateTime &when, const std::vector<std::string> &headlines = {},
                       CaptionOf of = CaptionOf::Runs);

// The window's picture with the caption in a strip below it, in the
// palette's colours. Returns the strip's height through `captionHeight`.
QImage composeScreenshot(const QPixmap &window, const QString &caption, const QPalette &palette,
                         const QFont &font, int *captionHeight = nullptr);

// Where screenshots go: `preferred` if given, else the last directory used,
// else Pictures, else home; created if missing.
QString screenshotDirectory(const QString &preferred = {});

} // namespace latprobe
