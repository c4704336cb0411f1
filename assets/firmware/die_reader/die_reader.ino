// Gumshoe die reader — reference firmware, protocol version 1 (docs/die-protocol.md).
//
// Board: Arduino Nano or Uno (ATmega328P, 5 V). Sensor: MPU-6050 breakout (GY-521) on I2C,
// mounted inside a hollow die (or a die-shaped box). The face pointing up is the axis most
// aligned with gravity. No libraries beyond Wire: the sensor is read register by register.
//
// Every line sent is "$BODY*CRC\n", CRC-16/CCITT-FALSE of BODY in 4 upper-case hex digits.

#include <EEPROM.h>
#include <Wire.h>

// ---- settings a builder may change ----------------------------------------------------
const char DEVICE[] = "gumshoe-die";
const char FIRMWARE[] = "1.0.0";
const uint8_t PROTOCOL = 1;
const uint8_t FACES = 6;
const unsigned long HEARTBEAT_MS = 1000;
const int BATTERY_PIN = -1;            // an analog pin with a 1:2 divider to the battery, or -1
const uint8_t MPU_ADDRESS = 0x68;      // 0x69 if the AD0 pin is tied high

// Which face is up when each axis points up (+X, -X, +Y, -Y, +Z, -Z). Opposite faces of a
// die add up to 7; turn the die in your hand and edit this table to match your build.
const uint8_t FACE_FOR_AXIS[6] = {2, 5, 3, 4, 1, 6};

// Movement detection, in accelerometer units (16384 = 1 g at the default +-2 g range).
const long MOVING_DELTA = 2500;        // change between two samples that means "moving"
const unsigned long STILL_MS = 400;    // still this long = came to rest
const float FLAT_COS = 0.94;           // cos(20 degrees): less aligned than this = crooked

const uint8_t PENDING_SLOTS = 8;       // unacknowledged rolls kept for re-sending
const unsigned long RESEND_FIRST_MS = 250;

// ---- protocol -------------------------------------------------------------------------
uint16_t crc16(const char *data, size_t length) {
  uint16_t crc = 0xFFFF;                               // CRC-16/CCITT-FALSE
  for (size_t i = 0; i < length; i++) {
    crc ^= (uint16_t)(uint8_t)data[i] << 8;
    for (uint8_t bit = 0; bit < 8; bit++) {
      crc = (crc & 0x8000) ? (uint16_t)((crc << 1) ^ 0x1021) : (uint16_t)(crc << 1);
    }
  }
  return crc;
}

void sendBody(const char *body) {
  char check[6];
  snprintf(check, sizeof check, "%04X", crc16(body, strlen(body)));
  Serial.write('$');
  Serial.print(body);
  Serial.write('*');
  Serial.print(check);
  Serial.write('\n');
}

char bootId[5];
uint16_t sequence = 0;

void sendHello() {
  char body[64];
  snprintf(body, sizeof body, "HELLO %s %s %u %s %u %lu", DEVICE, FIRMWARE, PROTOCOL, bootId, FACES,
           HEARTBEAT_MS);
  sendBody(body);
}

void sendState(const char *state) {
  char body[24];
  snprintf(body, sizeof body, "STATE %s", state);
  sendBody(body);
}

void sendRoll(uint16_t seq, uint8_t face) {
  char body[32];
  snprintf(body, sizeof body, "ROLL %s %u %u", bootId, seq, face);
  sendBody(body);
}

void sendError(const char *code, const char *words) {
  char body[80];
  snprintf(body, sizeof body, "ERR %s %s", code, words);
  sendBody(body);
}

// ---- rolls waiting for the host's ACK ---------------------------------------------------
struct Pending {
  bool used;
  uint16_t seq;
  uint8_t face;
  unsigned long nextSend;
  unsigned long interval;
};
Pending pending[PENDING_SLOTS];

void keepForResend(uint16_t seq, uint8_t face) {
  uint8_t slot = 0;
  for (uint8_t i = 0; i < PENDING_SLOTS; i++) {          // a free slot, else the oldest
    if (!pending[i].used) { slot = i; break; }
    if ((uint16_t)(pending[i].seq - pending[slot].seq) > 0x8000) slot = i;
  }
  pending[slot].used = true;
  pending[slot].seq = seq;
  pending[slot].face = face;
  pending[slot].interval = RESEND_FIRST_MS;
  pending[slot].nextSend = millis() + RESEND_FIRST_MS;
}

void acknowledge(uint16_t seq) {
  for (uint8_t i = 0; i < PENDING_SLOTS; i++) {
    if (pending[i].used && pending[i].seq == seq) pending[i].used = false;
  }
}

void resendDue() {
  unsigned long now = millis();
  for (uint8_t i = 0; i < PENDING_SLOTS; i++) {
    if (pending[i].used && (long)(now - pending[i].nextSend) >= 0) {
      // Never give up (the host may be reconnecting), but less and less often.
      sendRoll(pending[i].seq, pending[i].face);
      pending[i].interval = min(pending[i].interval * 2, HEARTBEAT_MS);
      pending[i].nextSend = now + pending[i].interval;
    }
  }
}

// ---- commands from the host ---------------------------------------------------------------
char inbox[40];
uint8_t inboxLength = 0;

void handleLine(char *line) {
  char *start = strrchr(line, '$');
  if (start == NULL) return;
  char *star = strrchr(start, '*');
  if (star == NULL || strlen(star) < 5) return;
  *star = '\0';
  char *body = start + 1;
  char *end;
  unsigned long check = strtoul(star + 1, &end, 16);
  if (end != star + 5 || check != crc16(body, strlen(body))) return;   // garbled: ignore
  if (strcmp(body, "HELLO?") == 0) {
    sendHello();
  } else if (strncmp(body, "ACK ", 4) == 0) {
    // "ACK <boot> <seq>": an ACK for a roll of an earlier boot must not cancel a new roll
    // that happens to have the same number.
    char *space = strchr(body + 4, ' ');
    if (space == NULL) return;
    *space = '\0';
    if (strcmp(body + 4, bootId) != 0) return;
    acknowledge((uint16_t)strtoul(space + 1, NULL, 10));
  }
}

void readHost() {
  while (Serial.available() > 0) {
    char c = (char)Serial.read();
    if (c == '\n' || c == '\r') {
      inbox[inboxLength] = '\0';
      if (inboxLength > 0) handleLine(inbox);
      inboxLength = 0;
    } else if (inboxLength < sizeof inbox - 1) {
      inbox[inboxLength++] = c;
    } else {
      inboxLength = 0;                                   // too long: not from our host
    }
  }
}

// ---- the sensor -----------------------------------------------------------------------
bool sensorOk = false;

bool wakeSensor() {
  Wire.beginTransmission(MPU_ADDRESS);
  Wire.write(0x6B);                                      // PWR_MGMT_1
  Wire.write(0x00);                                      // wake up, internal clock
  return Wire.endTransmission() == 0;
}

bool readAcceleration(long &x, long &y, long &z) {
  Wire.beginTransmission(MPU_ADDRESS);
  Wire.write(0x3B);                                      // ACCEL_XOUT_H
  if (Wire.endTransmission(false) != 0) return false;
  if (Wire.requestFrom((int)MPU_ADDRESS, 6) != 6) return false;
  long values[3];
  for (uint8_t i = 0; i < 3; i++) {
    uint8_t high = Wire.read();                          // read in order: high byte first
    uint8_t low = Wire.read();
    values[i] = (int16_t)((high << 8) | low);
  }
  x = values[0];
  y = values[1];
  z = values[2];
  return true;
}

// The face up, or 0 when no axis is close enough to vertical (a crooked landing).
uint8_t faceUp(long x, long y, long z) {
  long ax = labs(x), ay = labs(y), az = labs(z);
  float magnitude = sqrt((float)x * x + (float)y * y + (float)z * z);
  if (magnitude < 1.0) return 0;
  uint8_t axis;
  long strongest;
  if (ax >= ay && ax >= az) { axis = x > 0 ? 0 : 1; strongest = ax; }
  else if (ay >= az)        { axis = y > 0 ? 2 : 3; strongest = ay; }
  else                      { axis = z > 0 ? 4 : 5; strongest = az; }
  if (strongest / magnitude < FLAT_COS) return 0;
  return FACE_FOR_AXIS[axis];
}

// ---- main loop --------------------------------------------------------------------------
long lastX = 0, lastY = 0, lastZ = 0;
bool rolling = false;
unsigned long stillSince = 0;
unsigned long nextHeartbeat = 0;
unsigned long nextBattery = 0;
unsigned long nextSensorRetry = 0;

void setup() {
  Serial.begin(115200);
  Wire.begin();
  // The boot id must differ at every power-on so that the app recognises a reboot (sequence
  // numbers start again at 1): count boots in EEPROM (one write per boot, far below its
  // 100,000-write endurance) rather than trust the weak randomness of a floating pin.
  uint16_t boots;
  EEPROM.get(0, boots);
  boots++;
  EEPROM.put(0, boots);
  snprintf(bootId, sizeof bootId, "%04X", boots);
  sensorOk = wakeSensor();
  sendHello();
  if (!sensorOk) sendError("SENSOR", "no accelerometer on I2C");
  nextHeartbeat = millis() + HEARTBEAT_MS;
}

void loop() {
  unsigned long now = millis();
  readHost();
  resendDue();

  if ((long)(now - nextHeartbeat) >= 0) {
    char body[24];
    snprintf(body, sizeof body, "HB %lu", now);
    sendBody(body);
    nextHeartbeat = now + HEARTBEAT_MS;
  }
  if (BATTERY_PIN >= 0 && (long)(now - nextBattery) >= 0) {
    long millivolts = analogRead(BATTERY_PIN) * 2L * 5000L / 1023L;   // 1:2 divider, 5 V reference
    long percent = constrain((millivolts - 3300) * 100 / (4200 - 3300), 0, 100);  // one Li-ion cell
    char body[24];
    snprintf(body, sizeof body, "BATT %ld %ld", millivolts, percent);
    sendBody(body);
    nextBattery = now + 60000UL;
  }

  if (!sensorOk) {
    if ((long)(now - nextSensorRetry) >= 0) {
      sensorOk = wakeSensor();
      if (!sensorOk) sendError("SENSOR", "no accelerometer on I2C");
      nextSensorRetry = now + 5000UL;
    }
    return;
  }
  long x, y, z;
  if (!readAcceleration(x, y, z)) {
    sensorOk = false;
    sendError("SENSOR", "accelerometer stopped answering");
    return;
  }
  long delta = labs(x - lastX) + labs(y - lastY) + labs(z - lastZ);
  lastX = x; lastY = y; lastZ = z;
  if (delta > MOVING_DELTA) {
    if (!rolling) sendState("rolling");
    rolling = true;
    stillSince = now;
  } else if (rolling && now - stillSince >= STILL_MS) {
    rolling = false;
    uint8_t face = faceUp(x, y, z);
    if (face == 0) {
      sendState("crooked");                              // no roll: the players roll again
    } else {
      sequence = (sequence == 0xFFFF) ? 1 : sequence + 1;
      sendState("settled");
      sendRoll(sequence, face);
      keepForResend(sequence, face);
    }
  }
  delay(10);
}
