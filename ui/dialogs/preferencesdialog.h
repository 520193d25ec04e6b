#pragma once

#include <QDialog>

class QSpinBox;

namespace latprobe {

// Edit ▸ Preferences: what a window user would otherwise have to restart
// from a shell to change. Saved in the settings, applied at once.
class PreferencesDialog : public QDialog
{
    Q_OBJECT
public:
    PreferencesDialog(int maxLoadProcesses, QWidget *parent = nullptr);

    int maxLoadProcesses() const;
    QSpinBox *maxLoadProcessesBox() const { return m_maxProcesses; }

    // The settings key, and the range --max-workers takes.
    static constexpr const char *kMaxProcessesKey = "loads/maxProcesses";
    static constexpr int kMaxProcessesLimit = 100000;

private:
    QSpinBox *m_maxProcesses;
};

} // namespace latprobe
