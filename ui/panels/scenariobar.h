#pragma once

#include "run.h"

#include <QFrame>

class QLabel;
class QProgressBar;
class QPushButton;
class QToolButton;

namespace latprobe {

struct ScenarioProgress;

// A scenario under way, between the counters and the plots: step i of n
// and its name, a bar with the time left, Cancel. Once it has ended: how,
// and Save run for the scenario's own run.
class ScenarioBar : public QFrame
{
    Q_OBJECT
public:
    explicit ScenarioBar(QWidget *parent = nullptr);

    void showRunning(const QString &scenario, const ScenarioProgress &progress, double totalS);
    void showEnded(const QString &text, bool canSave);

    QString text() const;
    QProgressBar *progressBar() const { return m_progress; }
    QPushButton *cancelButton() const { return m_cancel; }
    QPushButton *saveButton() const { return m_save; }

    // "3:20", rounded up: time left or planned.
    static QString minutes(double seconds);
    // "3:19", rounded down as a clock: time measured. The phase table's
    // rows and measured() both write it so, and so add up alike.
    static QString elapsed(double seconds);
    // "3:20 (4 phases)": how much a run has measured (its phases'
    // durations), for the questions before it ends and a scenario's end.
    static QString measured(const Run &run);

signals:
    void cancelRequested();
    void saveRequested();

private:
    QLabel *m_label;
    QProgressBar *m_progress;
    QPushButton *m_cancel;
    QPushButton *m_save;
    QToolButton *m_close;
};

} // namespace latprobe
