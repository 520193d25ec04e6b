#include "runview.h"

namespace latprobe {

int RunView::consumerIndex(ConsumerRole role) const
{
    const std::vector<ConsumerConfig> &all = configs();
    for (size_t i = 0; i < all.size(); ++i)
        if (all[i].role == role)
            return static_cast<int>(i);
    return -1;
}

} // namespace latprobe
