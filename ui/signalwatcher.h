#pragma once

#include <QObject>

class QSocketNotifier;

namespace latprobe {

// SIGINT, SIGTERM and SIGHUP as a Qt signal, through a self-pipe: the
// handler only writes a byte, the event loop does the rest (close the
// window, stop the loads). A second signal kills the default way.
class SignalWatcher : public QObject
{
    Q_OBJECT
public:
    explicit SignalWatcher(QObject *parent = nullptr);
    ~SignalWatcher() override;

signals:
    void received(int signal);

private:
    QSocketNotifier *m_notifier = nullptr;
};

} // namespace latprobe
