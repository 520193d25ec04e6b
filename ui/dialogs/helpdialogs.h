#pragma once

#include <QList>
#include <QString>

class QAction;
class QDialog;
class QWidget;

namespace latprobe {

// Help ▸ Manual: the README (quick start, reading the result, privileges),
// compiled in, so the window and the web page never disagree; opened at
// the README's heading `heading` ("Quick start" for Help ▸ Getting
// started), else at its top.
QDialog *showManual(QWidget *parent, const QString &heading = {});
// Help ▸ Keyboard shortcuts: read off the actions themselves, so the list
// cannot go stale.
QDialog *showShortcuts(QWidget *parent, const QList<QAction *> &actions);

} // namespace latprobe
