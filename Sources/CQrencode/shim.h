// libqrencode's symbol encoder (QRcode_encodeString), imported into Swift by the CQrencode module.
#include <qrencode.h>
