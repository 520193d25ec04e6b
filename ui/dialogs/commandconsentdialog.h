#pragma once

#include <QDialog>
#include <QStringList>

class QPlainTextEdit;
class QPushButton;

namespace latprobe {

struct Scenario;

// Asked before a scenario with custom loads starts: those run whatever
// command their file says, so the user reads every one first. Refusing
// (the default button) starts nothing.
class CommandConsentDialog : public QDialog
{
    Q_OBJECT
public:
    explicit CommandConsentDialog(const Scenario &scenario, QWidget *parent = nullptr);

    // One line per custom load: step, copies, and the argv, quoted as a
    // shell would need it (it is run without a shell).
    static QStringList commandLines(const Scenario &scenario);
    QString listedText() const;
    QPushButton *runButton() const { return m_run; }
    QPushButton *refuseButton() const { return m_refuse; }

private:
    QPlainTextEdit *m_list;
    QPushButton *m_run;
    QPushButton *m_refuse;
};

} // namespace latprobe
