#pragma once

#include <QList>

class QAction;
class QDialog;
class QWidget;

namespace latprobe {

// Help ▸ Manual: the README (usage, consumers, metrics, loads, library),
// compiled in, so the window and the web page never disagree.
QDialog *showManual(QWidget *parent);
// Help ▸ Keyboard shortcuts: read off the actions themselves, so the list
// cannot go stale.
QDialog *showShortcuts(QWidget *parent, const QList<QAction *> &actions);

} // namespace latprobe
