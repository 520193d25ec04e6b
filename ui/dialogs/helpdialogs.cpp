#include "helpdialogs.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFile>
#include <QHeaderView>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

// Outside any namespace, as Q_INIT_RESOURCE must be; the resources live in
// this static library, and a test links no main() that registers them.
static void registerResources()
{
    Q_INIT_RESOURCE(latprobe);
}

namespace latprobe {

namespace {

QDialog *helpDialog(QWidget *parent, const QString &title, QWidget *content, const QSize &size)
{
    auto *dialog = new QDialog(parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(title);
    auto *layout = new QVBoxLayout(dialog);
    content->setParent(dialog);
    layout->addWidget(content);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
    layout->addWidget(buttons);
    dialog->resize(size);
    dialog->show();
    return dialog;
}

} // namespace

QDialog *showManual(QWidget *parent)
{
    auto *text = new QTextBrowser;
    text->setObjectName(QStringLiteral("manual"));
    text->setOpenExternalLinks(true);
    registerResources();
    QFile readme(QStringLiteral(":/latprobe/README.md"));
    if (readme.open(QIODevice::ReadOnly))
        text->setMarkdown(QString::fromUtf8(readme.readAll()));
    // Usage first: setting up a machine is what the reader did already.
    text->scrollToAnchor(QStringLiteral("usage"));
    return helpDialog(parent, QObject::tr("latprobe manual"), text, QSize(900, 700));
}

QDialog *showShortcuts(QWidget *parent, const QList<QAction *> &actions)
{
    auto *table = new QTableWidget(0, 2);
    table->setObjectName(QStringLiteral("shortcuts"));
    table->setHorizontalHeaderLabels({QObject::tr("Keys"), QObject::tr("Does")});
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->horizontalHeader()->setStretchLastSection(true);
    for (const QAction *a : actions) {
        if (a->shortcut().isEmpty())
            continue;
        const int row = table->rowCount();
        table->insertRow(row);
        table->setItem(row, 0,
                       new QTableWidgetItem(a->shortcut().toString(QKeySequence::NativeText)));
        QString what = a->text().remove(QLatin1Char('&'));
        what.remove(QStringLiteral("…"));
        table->setItem(row, 1, new QTableWidgetItem(what));
    }
    table->resizeColumnsToContents();
    return helpDialog(parent, QObject::tr("Keyboard shortcuts"), table, QSize(480, 420));
}

} // namespace latprobe
