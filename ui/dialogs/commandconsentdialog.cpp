#include "commandconsentdialog.h"

#include "scenario.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QStyle>
#include <QVBoxLayout>

namespace latprobe {

namespace {

QString quoted(const std::string &arg)
{
    QString a = QString::fromStdString(arg);
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_./:=,+@%-]+$"));
    if (plain.match(a).hasMatch())
        return a;
    a.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + a + QLatin1Char('\'');
}

} // namespace

QStringList CommandConsentDialog::commandLines(const Scenario &scenario)
{
    QStringList lines;
    for (size_t i = 0; i < scenario.steps.size(); ++i)
        for (const LoadSpec &spec : scenario.steps[i].loads) {
            if (!spec.runsCommand())
                continue;
            QStringList argv;
            for (const std::string &arg : spec.command)
                argv << quoted(arg);
            lines << QStringLiteral("step %1 (%2), %3 × %4")
                         .arg(i + 1)
                         .arg(QString::fromStdString(scenario.steps[i].name))
                         .arg(spec.count)
                         .arg(argv.join(QLatin1Char(' ')));
        }
    return lines;
}

CommandConsentDialog::CommandConsentDialog(const Scenario &scenario, QWidget *parent)
    : QDialog(parent), m_list(new QPlainTextEdit(this))
{
    setObjectName(QStringLiteral("commandConsentDialog"));
    setWindowTitle(tr("Run these commands?"));
    auto *layout = new QVBoxLayout(this);
    auto *top = new QHBoxLayout;
    auto *icon = new QLabel(this);
    const int size = style()->pixelMetric(QStyle::PM_MessageBoxIconSize, nullptr, this);
    icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(size, size));
    top->addWidget(icon, 0, Qt::AlignTop);
    auto *text = new QLabel(
        tr("<p>Scenario <b>%1</b> runs commands of its own as custom loads. They run as you, "
           "directly (no shell), in as many copies as listed, until their step ends.</p>"
           "<p>Read them before you allow them:</p>")
            .arg(QString::fromStdString(scenario.name).toHtmlEscaped()),
        this);
    text->setWordWrap(true);
    top->addWidget(text, 1);
    layout->addLayout(top);

    m_list->setReadOnly(true);
    m_list->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_list->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_list->setPlainText(commandLines(scenario).join(QLatin1Char('\n')));
    m_list->setMinimumWidth(560);
    m_list->setMaximumHeight(m_list->fontMetrics().lineSpacing() * 12);
    m_list->setAccessibleName(tr("commands the scenario runs"));
    layout->addWidget(m_list);

    auto *buttons = new QDialogButtonBox(this);
    m_run = buttons->addButton(tr("&Run these commands"), QDialogButtonBox::AcceptRole);
    m_refuse = buttons->addButton(tr("&Don't run"), QDialogButtonBox::RejectRole);
    m_refuse->setDefault(true);
    m_refuse->setFocus();
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
}

QString CommandConsentDialog::listedText() const
{
    return m_list->toPlainText();
}

} // namespace latprobe
