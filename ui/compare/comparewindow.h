#pragma once

#include "compare.h"
#include "run.h"

#include <QImage>
#include <QMainWindow>
#include <QStringList>

#include <vector>

class QAction;
class QComboBox;
class QHBoxLayout;
class QLabel;
class QTableWidget;
class QTableWidgetItem;

namespace latprobe {

class CdfPlot;
class MessageBanner;
class RatioPlot;
class RoundPlot;

// Asks for run files to compare, starting where the last ones were found;
// empty when the user cancels.
QStringList askForRunFiles(QWidget *parent);

// Runs side by side (File ▸ Compare runs…, latprobe-gui --compare A B ...):
// each consumer's latency distribution per phase overlaid, one curve per
// run × phase; the changes against run 1 with their intervals as whiskers;
// the table of `latprobe compare` with its verdicts (coloured only where
// significant), phases only some runs have, and each phase's one-line
// verdict; computed by the same compareRuns() and copied as the same text.
// One run that played variants shows them side by side instead, as
// `latprobe compare RUN.json` does (compareVariants()), with each round's
// value of A and B.
class CompareWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit CompareWindow(QWidget *parent = nullptr);
    ~CompareWindow() override;

    // Adds the runs in these files (latprobe runs or cyclictest JSON). A
    // file that cannot be read is skipped and named, with why, in the
    // banner. Returns how many were added.
    int openFiles(const QStringList &paths);
    // Adds a run held in memory (the A/B the window just played), labelled
    // `file` where a run read from disk shows its file name.
    void addRun(const Run &run, const std::string &file);
    void openInteractively();
    void clearRuns();
    int runCount() const { return static_cast<int>(m_runs.size()); }

    // The plain-text table, as `latprobe compare` prints it.
    QString comparisonText() const;
    void copyAsText();
    // The runs (or an A/B's variants) and its verdicts, under a screenshot.
    QString screenshotCaptionText() const;
    QImage screenshotImage(int *captionHeight = nullptr);
    QString saveScreenshot(const QString &dir = {});

    void setConsumer(const QString &name);
    // "" shows every phase.
    void setPhase(const QString &name);

    MessageBanner *banner() const { return m_banner; }
    QLabel *warningLabel() const { return m_warnings; }
    QTableWidget *table() const { return m_table; }
    CdfPlot *cdfPlot() const { return m_plot; }
    RatioPlot *ratioPlot() const { return m_ratios; }
    // Shown for a run that played variants only.
    RoundPlot *roundPlot() const { return m_roundPlot; }
    QLabel *summaryLabel() const { return m_summary; }
    // One run that played variants: its verdicts, one line a variant.
    const std::vector<std::string> &headlines() const { return m_headlines; }
    QComboBox *consumerBox() const { return m_consumerBox; }
    QAction *copyAction() const { return m_copy; }
    QAction *screenshotAction() const { return m_screenshot; }

private:
    void buildActions(); // and the menu and toolbar that hold them
    void buildLayout();
    QHBoxLayout *buildChoosers(QWidget *central); // consumer and phase
    void setUpTable();
    void setHeaders(); // the value columns named after the runs' or variants' sides
    void rebuild();
    void fillTable();
    // One metric of one consumer: its values, change and verdict, coloured when decided.
    void fillMetricRow(int row, const MetricComparison &m, bool single);
    QTableWidgetItem *setCell(int row, int column, const QString &text, bool number = true);
    void updatePlot();
    void updateRoundPlot(const std::string &consumer, const QString &only);
    void updateRunsLabel();

    std::vector<Run> m_runs;
    std::vector<std::string> m_files;
    // The one run's variants (splitByVariant()), when it played them.
    std::vector<Run> m_variantRuns;
    bool m_variants = false;
    // What the comparison's sides index: the runs, or the variants.
    const std::vector<Run> &sides() const { return m_variants ? m_variantRuns : m_runs; }
    QString who(size_t side) const { return QString::fromStdString(m_comparison.who(side)); }
    Comparison m_comparison;
    std::vector<std::string> m_headlines;

    MessageBanner *m_banner;
    QLabel *m_runsLabel;
    QLabel *m_warnings;
    QComboBox *m_consumerBox;
    QComboBox *m_phaseBox;
    CdfPlot *m_plot;
    RatioPlot *m_ratios;
    RoundPlot *m_roundPlot;
    QTableWidget *m_table;
    QLabel *m_summary;
    QAction *m_open = nullptr;
    QAction *m_copy = nullptr;
    QAction *m_screenshot = nullptr;
    QAction *m_clear = nullptr;
};

// A Compare window of its own with these runs in it, shown, deleted on
// close, and closed with `parent`.
CompareWindow *openCompareWindow(QWidget *parent, const QStringList &files);

} // namespace latprobe
