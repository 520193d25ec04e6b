#pragma once

#include "loadchoice.h"

#include <QDialog>

#include <map>

class QComboBox;
class QDoubleSpinBox;
class QLineEdit;

namespace latprobe {

struct LoadKind;
struct LoadParam;

// Every setting of a load kind beyond the row's: the kind's parameters
// with their help text, scheduling policy, CPUs and session.
class LoadParamsDialog : public QDialog
{
    Q_OBJECT
public:
    LoadParamsDialog(const LoadKind &kind, const LoadChoice &choice, QWidget *parent = nullptr);

    LoadChoice choice() const;

private:
    const LoadKind &m_kind;
    LoadChoice m_choice;
    std::map<std::string, QDoubleSpinBox *> m_params;
    QComboBox *m_policy;
    QLineEdit *m_cpus;
    QComboBox *m_session;
    QLineEdit *m_command = nullptr;
};

// A spin box fitted to a parameter's range; whole numbers when its
// default and minimum are.
QDoubleSpinBox *makeParamSpinBox(const LoadParam &param, QWidget *parent);

} // namespace latprobe
