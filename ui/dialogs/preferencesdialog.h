#pragma once

#include <QDialog>

class QCheckBox;
class QSpinBox;

namespace latprobe {

// Edit ▸ Preferences: what a window user would otherwise have to restart
// from a shell to change. Saved in the settings, applied at once.
class PreferencesDialog : public QDialog
{
    Q_OBJECT
public:
    PreferencesDialog(int maxLoadProcesses, bool saveTraces, QWidget *parent = nullptr);

    int maxLoadProcesses() const;
    QSpinBox *maxLoadProcessesBox() const { return m_maxProcesses; }
    // Each explained miss's kernel trace kept as trace.dat (--save-trace),
    // from the next window on: the recorder's saving is set at its start.
    bool saveTraces() const;
    QCheckBox *saveTracesBox() const { return m_saveTraces; }
    static constexpr const char *kSaveTracesKey = "trace/saveTraces";

    // The settings key, and the range --max-workers takes.
    static constexpr const char *kMaxProcessesKey = "loads/maxProcesses";
    static constexpr int kMaxProcessesLimit = 100000;

private:
    QSpinBox *m_maxProcesses;
    QCheckBox *m_saveTraces;
};

} // namespace latprobe
