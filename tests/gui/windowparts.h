#pragma once

// A window's part found by the object name the window gives it
// ("load-panel", "stop-all-loads": mainwindow.cpp), the way a test reaches
// it: the windows keep no accessors for tests. A part missing or of another
// type ends the test there, naming it.

#include <QObject>
#include <QString>

template <typename T> T *windowPart(const QObject *window, const char *name)
{
    T *part = window->findChild<T *>(QLatin1String(name));
    if (!part)
        qFatal("the window has no %s named \"%s\"", T::staticMetaObject.className(), name);
    return part;
}
