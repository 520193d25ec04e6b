#pragma once

#include "missexplanation.h"

#include <QDialog>

#include <vector>

class QLabel;
class QPushButton;
class QVBoxLayout;

namespace latprobe {

// Who delayed me, in the window: a click on the misses plot shows the
// explained misses within a second of where it landed, nearest first, each
// as its delay bar (delaybar.h) and the lines a bug report takes
// (formatExplanation()), with Copy; or, when there is none, why (tracing
// off and what to grant, or only a phase's first misses are explained, and
// a button to have the next ones explained). A miss whose window was saved
// as trace.dat (`--save-trace`) gets "Open in KernelShark" (when it is
// installed) and "Save trace…", to attach to a mail.
class WhoDelayedDialog : public QDialog
{
    Q_OBJECT
public:
    static constexpr double kNearS = 1.0;
    static constexpr size_t kShown = 3;

    explicit WhoDelayedDialog(QWidget *parent = nullptr);

    // `whyNone`: what to say when no explanation is near (the recorder's
    // one-line message when it is off).
    void showNear(const std::vector<MissExplanation> &explanations, double timeS,
                  const QString &whyNone);
    int shownCount() const { return m_shown; }
    QString text() const { return m_text; } // what Copy copies
    QPushButton *explainMoreButton() const { return m_explainMore; }
    // The trace files of the misses shown, in their order ("" none).
    QStringList traceFiles() const { return m_traceFiles; }
    // KernelShark's program: found on PATH, "" when it is not installed.
    static QString kernelSharkProgram();
    // Opens the shown miss's trace in KernelShark; false when it cannot.
    bool openInKernelShark(int shown);
    // Copies the shown miss's trace to `path`; false with a message shown.
    bool saveTrace(int shown, const QString &path);

signals:
    // "Explain the next misses": the user wants more than the first of
    // this phase explained (Session::explainMore()).
    void explainMoreRequested();

private:
    void addTraceButtons(int shown);

    QLabel *m_title;
    QWidget *m_list;
    QVBoxLayout *m_listLayout;
    QPushButton *m_explainMore;
    QString m_text;
    QStringList m_traceFiles;
    int m_shown = 0;
};

} // namespace latprobe
