#pragma once

#include "knobcheck.h"
#include "knobenvironment.h"
#include "scenario.h"

#include <QDialog>

#include <vector>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QWidget;

namespace latprobe {

struct SettingKind;

// Scenario ▸ A/B…: two variants of the system to play in turns, what they
// play, for how many rounds, and what that costs in minutes. Each setting
// shows its value now; those this machine refuses are greyed out with why.
// Nothing is checked twice: a variant is refused here by the same
// refuseVariants() that `latprobe run --variant` and the session use.
class AbDialog : public QDialog
{
    Q_OBJECT
public:
    AbDialog(KnobEnvironment env, KnobRun run, QWidget *parent = nullptr);

    // What to play; valid once problem() is "".
    Scenario scenario() const;
    // Why it cannot start as it is ("" when it can), as the dialog says it.
    QString problem() const { return m_problem; }
    QString cost() const;

private:
    struct SettingRow
    {
        const SettingKind *kind;
        QCheckBox *use;
        QWidget *value; // QComboBox for a choice, else QLineEdit
        QLabel *now;
    };
    struct VariantBox
    {
        QLineEdit *name;
        std::vector<SettingRow> rows;
    };

    QFormLayout *buildPlayForm();  // what plays, each step's length
    QFormLayout *buildTurnsForm(); // rounds, settling, what it takes
    QGroupBox *makeVariantBox(const QString &title, const QString &name, VariantBox &box);
    Variant variantOf(const VariantBox &box) const;
    Scenario played() const;
    void refresh();

    KnobEnvironment m_env;
    KnobRun m_run;
    QComboBox *m_play;
    QLineEdit *m_load;
    QSpinBox *m_stepS;
    VariantBox m_a, m_b;
    QSpinBox *m_rounds;
    QCheckBox *m_untilDecided; // --rounds auto: m_rounds is then the most
    QLabel *m_roundsWarning;   // fewer rounds than a verdict needs
    QDoubleSpinBox *m_settle;
    QLabel *m_cost;
    QLabel *m_problemLabel;
    QDialogButtonBox *m_buttons;
    QString m_problem;
};

} // namespace latprobe
