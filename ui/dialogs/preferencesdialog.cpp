#include "preferencesdialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

namespace latprobe {

PreferencesDialog::PreferencesDialog(int maxLoadProcesses, bool saveTraces, QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Preferences — latprobe"));
    auto *layout = new QVBoxLayout(this);
    auto *form = new QFormLayout;
    m_maxProcesses = new QSpinBox(this);
    m_maxProcesses->setRange(1, kMaxProcessesLimit);
    m_maxProcesses->setValue(maxLoadProcesses);
    m_maxProcesses->setAccessibleName(tr("Most load processes at once"));
    form->addRow(tr("Most load processes at &once:"), m_maxProcesses);
    layout->addLayout(form);
    auto *why = new QLabel(
        tr("A start that would run more load processes than this, with those running, is "
           "refused before anything starts (latprobe run --max-workers). Thousands of "
           "workers can make the desktop itself unusable until they are stopped."),
        this);
    why->setWordWrap(true);
    layout->addWidget(why);
    m_saveTraces = new QCheckBox(tr("Save each explained miss's kernel &trace (trace.dat)"), this);
    m_saveTraces->setChecked(saveTraces);
    layout->addWidget(m_saveTraces);
    auto *traceWhy = new QLabel(
        tr("From the next window on, as root: \"Who delayed it\" can then open a miss in "
           "KernelShark or save it for a mail (latprobe run --save-trace). A trace names every "
           "task that ran at the time."),
        this);
    traceWhy->setWordWrap(true);
    layout->addWidget(traceWhy);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
}

int PreferencesDialog::maxLoadProcesses() const
{
    return m_maxProcesses->value();
}

bool PreferencesDialog::saveTraces() const
{
    return m_saveTraces->isChecked();
}

} // namespace latprobe
