#include "helpdialogs.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFile>
#include <QHeaderView>
#include <QTableWidget>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTimer>
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

// Markdown headings carry no anchors in a QTextDocument: the heading's
// block is found by its text. Once the dialog is laid out, the view goes
// to the end and back up to the heading, which leaves it at the top.
void scrollToHeading(QTextBrowser *text, const QString &heading)
{
    for (QTextBlock b = text->document()->begin(); b.isValid(); b = b.next()) {
        if (b.blockFormat().headingLevel() == 0 || b.text().trimmed() != heading)
            continue;
        QTimer::singleShot(0, text, [text, at = QTextCursor(b)] {
            text->moveCursor(QTextCursor::End);
            text->ensureCursorVisible();
            text->setTextCursor(at);
            text->ensureCursorVisible();
        });
        return;
    }
}

} // namespace

QDialog *showManual(QWidget *parent, const QString &heading)
{
    auto *text = new QTextBrowser;
    text->setObjectName(QStringLiteral("manual"));
    text->setOpenExternalLinks(true);
    registerResources();
    // The README's picture is compiled in under the path the README gives.
    text->setSearchPaths({QStringLiteral(":/latprobe")});
    QFile readme(QStringLiteral(":/latprobe/README.md"));
    if (readme.open(QIODevice::ReadOnly))
        text->setMarkdown(QString::fromUtf8(readme.readAll()));
    QDialog *dialog = helpDialog(parent, QObject::tr("latprobe manual"), text, QSize(900, 700));
    if (!heading.isEmpty())
        scrollToHeading(text, heading);
    return dialog;
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
