#pragma once

#include <QObject>

class QSocketNotifier;

namespace latprobe {

// SIGINT, SIGTERM, SIGHUP and SIGUSR1 as a Qt signal, through a self-pipe:
// the handler only writes a byte, the event loop does the rest (close the
// window, stop the loads; capture the state for SIGUSR1). A second SIGINT,
// SIGTERM or SIGHUP kills the default way.
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
