PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);
INSERT INTO meta VALUES('schema','1');
CREATE TABLE runs(
  run TEXT PRIMARY KEY,
  variant TEXT NOT NULL, variant_hash TEXT NOT NULL, options TEXT NOT NULL,
  agent0 TEXT NOT NULL, agent1 TEXT NOT NULL,
  side0 TEXT NOT NULL, side1 TEXT NOT NULL,
  seed INTEGER NOT NULL, max_plies INTEGER NOT NULL,
  effects TEXT NOT NULL,
  tiers_version TEXT NOT NULL, created TEXT NOT NULL);
INSERT INTO runs VALUES('8e7f2bd3ff737ce0','duel-effects','eba2b82ef4a4aa3c','','random','random','white','black',7,400,'promote,no-corner-drop,crown','0.1.0','2026-12-03 07:33:34');
CREATE TABLE games(
  run TEXT NOT NULL, game INTEGER NOT NULL,
  variant TEXT NOT NULL, variant_hash TEXT NOT NULL, options TEXT NOT NULL,
  agent0 TEXT NOT NULL, agent1 TEXT NOT NULL,
  seed INTEGER NOT NULL, game_seed TEXT NOT NULL,
  result TEXT NOT NULL,
  winner INTEGER,
  reason TEXT NOT NULL, cut INTEGER NOT NULL,
  plies INTEGER NOT NULL, setup_plies INTEGER NOT NULL,
  first_side INTEGER,
  captures INTEGER NOT NULL, drops INTEGER NOT NULL,
  placements INTEGER NOT NULL, stacks INTEGER NOT NULL,
  legal_sum INTEGER NOT NULL, legal_plies INTEGER NOT NULL,
  seconds REAL NOT NULL,
  moves TEXT NOT NULL,
  legal TEXT NOT NULL,
  finished TEXT NOT NULL,
  PRIMARY KEY(run, game));
INSERT INTO games VALUES('8e7f2bd3ff737ce0',0,'duel-effects','eba2b82ef4a4aa3c','','random','random',7,'64bf61b512ffabe7','1-0',0,'checkmate',0,55,0,0,8,7,0,15,765,55,0.0024974139960249885916,'d1^d2 d4-c3 d2-d3 c3^b2 c1^c2 b2-c1 c2xc1 c4^d3 G*a4 d3xd2 c1^c2 d2-e1 d3-d5 c5^d5 a4-a3 P*a4 c2^b2 b4-b3 a3xb3 b5-c5 b2-c1 c5-c4 b3^c2 c4xc2 c1-b1 G*c1 b1-a1 e1-e2 P*d2 c2^c1 a1^b2 c1xc2 b2-a1 c2^c1 a1^b2 P*d1 d2-e3 c1-c5 b2-a2 c1^b2 a2xb2 e2^e3 G*b1 c5-c4 b1-c1 e3-e2 e3-e4 c4^e4 c1-d2 e2-e1 d2xe1 a4-a3 b2-b3 a3xb2 G*d4','16 15 16 18 4 15 2 12 25 13 7 22 21 3 14 27 14 15 8 12 31 11 32 14 2 31 2 20 19 24 2 16 2 38 2 33 5 16 4 19 1 13 20 13 8 16 11 5 11 9 16 3 8 3 26','2026-12-03 07:33:34');
INSERT INTO games VALUES('8e7f2bd3ff737ce0',1,'duel-effects','eba2b82ef4a4aa3c','','random','random',7,'7716da39cba275b2','0-1',1,'checkmate',0,32,0,0,4,4,0,4,551,32,0.001308860999415628612,'d2-c3 b4xc3 b2-a3 b5-b3 a3-b4 c5^c4 c2xb3 c4-d5 d1-d3 P*b2 c1-d1 c3^b2 b4-b5 d5-e4 d1-e2 d4-c3 d3-d5 c3-d2 R*a3 b2-c1 d5-d4 e4-e5 a3-a1 e5^d4 b5-a5 c4xb3 a1-b1 c1^d2 e2xd2 P*e2 G*a2 e2-e1','16 16 13 29 11 7 12 5 25 25 1 15 30 12 33 14 32 11 30 12 20 3 23 18 15 19 8 33 1 25 25 12','2026-12-03 07:33:34');
INSERT INTO games VALUES('8e7f2bd3ff737ce0',2,'duel-effects','eba2b82ef4a4aa3c','','random','random',7,'1b9730bf3fc5de36','1-0',0,'checkmate',0,73,0,0,6,6,0,14,1120,73,0.002260776003822684288,'c1-b1 d4-c3 c2-d3 b4-a3 b2xa3 c3^d2 b1-a1 d2-e1 d3-e4 e1^d1 P*a4 c4-c3 a3^a4 c5-c4 e4-e5 d1^d2 a4^b5 c4^c3 e5-d5 c3-b3 d5-c5 d2-d3 b5-b4 b5^b4 a4-b5 d3-c2 d1-b1 c2^b1 a1xb1 c3-c2 b1-a1 c2^b1 a1xb1 b3-a3 b1-c1 a3-a2 b5-a4 b4xb1 c1-c2 R*e2 b4-c4 e2-e4 a4-a3 a2xa3 G*a2 a3-a4 c4-d4 b1-a1 c5^d4 G*d3 c2xd3 e4-e2 d4-c5 a1^a2 G*c3 a4-a5 G*a3 e2-e1 d4-d5 e1-e3 d2^e3 a2-e2 a2-a1 e2-d2 d3^c3 d2-b2 a3-a4 a5^a4 d5-e4 b2-b1 c5-c4 b1-d1 c4-b5','16 16 18 17 18 13 26 13 31 14 24 14 13 16 11 18 12 3 15 3 16 14 20 3 17 15 18 6 1 5 1 4 1 1 7 1 33 10 2 20 33 11 37 3 35 3 40 24 42 26 8 11 35 10 33 13 40 12 30 11 6 7 33 4 7 6 25 2 19 6 18 6 18','2026-12-03 07:33:34');
INSERT INTO games VALUES('8e7f2bd3ff737ce0',3,'duel-effects','eba2b82ef4a4aa3c','','random','random',7,'e880a903bcff6547','0-1',1,'king crowned',0,44,0,0,1,1,0,7,584,44,0.0055562030029250308871,'c2-d3 d4^d3 b2-b3 c5-d4 d2-e3 d4-c5 e3-d4 c5^b5 d1-d2 c4^b3 c1-d1 b5^b4 d4-e5 b4-c3 d1-c1 b4-a3 d2-d1 b5-a5 d1xd3 c3-c4 P*e3 c4-c5 d3-c3 c5-b5 d3-e4 b5-b4 c1-d2 b4^a5 e4-d5 a5-b4 c3-c4 b4^a3 d2-e2 a3-b2 d5-e4 a5-b5 e2-e1 b2-a2 c4-b4 b5-d5 e1-d2 d5^e5 e3-d4 a2-b1','16 16 11 16 13 6 13 3 14 12 10 13 9 14 9 14 10 14 8 3 29 10 15 2 16 10 16 10 21 8 23 3 24 8 22 12 22 12 20 12 20 13 19 13','2026-12-03 07:33:34');
INSERT INTO games VALUES('8e7f2bd3ff737ce0',4,'duel-effects','eba2b82ef4a4aa3c','','random','random',7,'435eb23196e47bda','0-1',1,'king crowned',0,46,0,0,5,5,0,10,596,46,0.0011949160107178613543,'c1^d1 c4-b3 d2-c3 d4xc3 b2^b3 P*d5 d1-c1 b4xb3 d1-e1 d5-c4 e1-d1 P*a4 c2-d3 b5-a5 d3xc4 c5^c4 d1-d2 a4-a3 P*c5 c3xd2 c1^d2 R*e3 d2^e3 a5-a4 e3xd2 c4-b4 d2^e3 b4^a3 P*b2 b3^b2 c4-b5 a4-c4 b5-a5 c4-c3 e3-d2 c3-c4 d2^e3 a3-a2 a5-b5 c4-b4 b5-c4 b4^b3 c4-d3 b3-b5 e3-d2 a2-a1','16 16 15 17 13 26 10 15 9 32 9 30 9 15 9 4 20 13 23 16 3 28 2 15 2 16 20 13 20 7 5 7 7 12 2 18 6 12 4 16 7 12 5 12 9 19','2026-12-03 07:33:34');
INSERT INTO games VALUES('8e7f2bd3ff737ce0',5,'duel-effects','eba2b82ef4a4aa3c','','random','random',7,'8ea5269b74dee2bc','1-0',0,'checkmate',0,17,0,0,1,0,0,3,225,17,0.00053879199549555778503,'b2-a3 d4-e3 c2-c3 b5^b4 d2-d3 c4^c3 d3-d4 c5-b5 d4-e5 b4-b3 d1-d2 b5-a5 d2-e2 c3-d2 c1-c2 b3^b4 c3xb4','16 16 16 16 14 15 9 6 9 15 10 18 13 15 3 19 15','2026-12-03 07:33:34');
INSERT INTO games VALUES('8e7f2bd3ff737ce0',6,'duel-effects','eba2b82ef4a4aa3c','','random','random',7,'2b40f785f684cbe3','1/2-1/2',NULL,'stalemate',0,26,0,0,3,3,0,3,407,26,0.00048891600454226136207,'d2-e3 c5-d5 e3^d4 d5xd4 c1-d2 P*c3 d2-e2 c3xc2 d1-e1 b4-b3 e2-d2 P*b1 e1-e2 d4-d5 e2-e3 c4-d3 e3^d3 b5-a5 b2-a3 a5xa3 d2-e1 c2-c1 d3-e3 P*e2 e3^e2 d5-c5','16 16 17 3 14 28 8 20 10 32 8 34 10 19 9 21 3 16 6 16 2 30 9 36 2 22','2026-12-03 07:33:34');
INSERT INTO games VALUES('8e7f2bd3ff737ce0',7,'duel-effects','eba2b82ef4a4aa3c','','random','random',7,'3a3bfc2bf948c770','1-0',0,'king crowned',0,63,0,0,6,5,0,15,1043,63,0.00098282301041763275861,'b2-a3 d4-e3 a3xb4 c5xb4 P*e4 b4^b5 c1^d1 P*b3 d2-c3 e3-d2 d1^d2 b5-a4 c2-d3 c4^c3 d2xc3 d2-e1 P*c1 e1^d1 e4-e5 d1-e2 d1^d3 e2-d2 c3xd2 a4^b5 c1-b2 b3-c2 b2-a3 c2-b1 G*e4 b5-a5 e4-d4 b5-b3 e5-d5 b1-b2 d4-e5 b2^c3 d2-d1 a5-b5 e5^d5 b3^a3 d5-d4 a3-a4 d4-e3 a4^a3 d5-c4 b5-a4 d1-e1 a4-a5 e3-e2 c3^c4 d3^c3 c4-b3 e1^e2 b3-c2 c3-b3 c2xc3 e2-e3 P*c2 e3-e4 a3^b3 e2-e3 c3xc4 e4-e5','16 16 16 7 26 27 15 25 12 13 3 11 15 17 4 15 28 15 11 17 15 16 8 12 33 7 34 5 32 7 21 10 22 14 24 18 6 15 18 14 12 17 22 14 17 6 19 10 19 14 15 17 24 13 18 17 22 31 25 20 21 19 11','2026-12-03 07:33:34');
INSERT INTO games VALUES('8e7f2bd3ff737ce0',8,'duel-effects','eba2b82ef4a4aa3c','','random','random',7,'cf4b166fc36973db','0-1',1,'king crowned',0,52,0,0,7,4,0,10,875,52,0.0020309409883338958024,'d1-e1 c5^c4 c1^c2 c4^b4 e1-e2 d4-e3 e2^e3 b5-a5 b2-a3 b4^c4 e3-b3 a5-b5 c2-d1 b4-c3 c2xc3 c4^b3 P*b1 e3^d2 d1xd2 c4-d3 d2-d1 d3-c2 d1-e1 c2-c1 c3-c4 c1^d2 e1xd2 b5-d5 d2-e2 d5-d4 e2-e3 d4-e4 e3^d2 e4-d4 d2-e1 d4-d5 b1-b2 b3-a2 b3-b5 d5-d3 P*c3 d3xc3 G*b4 a2xb2 c4-d5 c3-c2 b5-c5 c2^d2 e1xd2 P*e3 d2xe3 b2-b1','16 16 17 15 15 14 15 11 18 6 18 17 18 16 21 4 25 10 2 7 6 8 5 8 26 13 1 6 44 7 42 9 4 8 7 9 45 4 49 10 47 11 35 26 25 28 24 24 21 18 5 19','2026-12-03 07:33:34');
INSERT INTO games VALUES('8e7f2bd3ff737ce0',9,'duel-effects','eba2b82ef4a4aa3c','','random','random',7,'86296af7beb9f0f7','1-0',0,'checkmate',0,37,0,0,4,4,0,8,556,37,0.00063585599127691239118,'c2-c3 c5^b5 c1^b2 c4xc3 b2-a2 b4-a3 a2-b3 P*d3 d2^c3 b5-a5 b3xa3 a5^b5 P*e4 d4xc3 e4-d5 P*b3 a3xb3 b5-a5 b3-a2 b5-c5 P*c1 a5-b4 d1-d2 c5^d5 a2-a1 b4-b5 d2^d3 b5-a5 d3-d2 a5-b5 c1^d2 c3-c2 a1-a2 d5-e5 d5-c4 b5^c4 b2-b3','16 16 19 15 6 29 7 26 15 11 4 11 28 8 12 22 16 8 5 15 33 14 19 17 14 20 14 13 14 17 14 16 10 19 18 4 11','2026-12-03 07:33:34');
INSERT INTO games VALUES('8e7f2bd3ff737ce0',10,'duel-effects','eba2b82ef4a4aa3c','','random','random',7,'c938d84a206661ec','1/2-1/2',NULL,'max plies',0,120,0,0,14,13,0,18,2089,120,0.0028574669995578005909,'b2-a3 b4-c3 d2^c3 c4-d3 c1-b1 d3^c2 b1-a1 d4-d3 c3-d4 c5^d4 d1xd3 d4-c4 P*b2 c4^d3 a1-a2 c3^b2 a3-a4 b5-d5 a2xb2 d3-c4 P*b5 c4-b4 d3-b3 b4-c4 b3-b4 c4xb4 d4xd5 c2-b1 b2xb1 R*c4 R*c5 c4xc5 d5^c5 b4^a4 c5-b4 a4xb4 G*a2 G*e2 b1-a1 e2-d3 b2-a3 b4-c4 a3-b4 d3-e4 c2-b3 c4-d5 b4-a5 c5-c4 a5-b4 d5-e5 a4-a5 c4^b4 a1^a2 R*c1 a5-a4 b4^b5 b3^b4 c1-c3 b4-a5 c3-d3 a5^a4 e4-e3 a2-a1 e3-d4 b4-c5 b5-b2 a2-a3 b2-b4 a3-a2 d4-e3 c5-c4 d3-d5 a2-b1 b4xc4 a4-b4 e5-e4 b4^a4 G*a2 b1^a2 c4-c2 a4^b5 e3-e2 a4-a3 e2-d2 b5-c4 d5xb5 c4-d3 e4xd3 a1-b1 c2-b2 a3xb2 P*d4 R*b4 G*d5 b2-b3 d2-c3 b3^c3 d4xc3 b4-a4 d3-d4 a4-a3 c3-c2 b1-a1 G*a4 a3-b3 a4-a5 b3^c3 a5^b5 c3-c4 d4-e3 c4-c5 d5-c4 c5xb5 e3-e4 G*a3 e4-e3 b5-b3 c4xb3 a3-a4 b5-d5','16 16 14 11 16 12 4 12 13 4 9 4 26 14 10 11 7 11 9 8 30 12 15 3 15 3 9 20 2 16 44 9 32 3 31 2 27 36 17 28 16 2 15 29 16 4 16 26 16 27 22 29 13 31 8 22 19 17 10 21 20 19 16 20 19 22 18 21 20 22 18 20 22 18 12 34 21 35 4 21 6 21 10 22 10 23 14 6 5 53 5 48 22 31 16 23 17 5 9 32 6 33 1 40 5 34 8 19 9 12 7 28 5 24 23 22 12 32 5 44','2026-12-03 07:33:34');
INSERT INTO games VALUES('8e7f2bd3ff737ce0',11,'duel-effects','eba2b82ef4a4aa3c','','random','random',7,'2369fa767f3bb7a3','1-0',0,'checkmate',0,57,0,0,5,5,0,11,821,57,0.0010224980069324374198,'c2-c3 c4-d3 c3^d4 c5xd4 d1-e1 P*b1 c1-d1 b5-d5 d1-c1 b4-a3 c1^b1 d3xd2 b1-c2 d5-c5 c2^d2 d4-e4 e1-c1 e4-e5 c1xb1 e5^d4 P*c4 c5-b5 b2-c3 d4-e4 c4-d5 e4^d5 b1-a1 P*c2 d2^c2 d2-e1 c3-b4 b5^b4 a1-a2 d4-c3 c2-d3 b4-d4 d3^c3 e1-d1 c3-b3 d1-e1 a2xa3 d4-c4 P*d3 e1-d1 d3-e4 c4^e4 b3^c3 d1-c1 a3-a1 c1-b1 c3-b3 b1-c1 a1xc1 c2^c1 b3-a3 c1-b1 G*c4','16 16 17 4 12 30 14 16 11 15 14 15 10 29 13 29 10 28 12 29 25 27 14 2 15 4 11 25 12 13 9 12 5 16 3 20 3 15 10 20 14 15 24 15 14 2 12 8 10 8 9 12 13 7 23 8 26','2026-12-03 07:33:34');
CREATE TABLE effects(
  run TEXT NOT NULL, game INTEGER NOT NULL, name TEXT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY(run, game, name));
INSERT INTO effects VALUES('8e7f2bd3ff737ce0',0,'promote',2);
INSERT INTO effects VALUES('8e7f2bd3ff737ce0',0,'no-corner-drop',11);
INSERT INTO effects VALUES('8e7f2bd3ff737ce0',0,'crown',0);
INSERT INTO effects VALUES('8e7f2bd3ff737ce0',1,'promote',3);
INSERT INTO effects VALUES('8e7f2bd3ff737ce0',1,'no-corner-drop',10);
INSERT INTO effects VALUES('8e7f2bd3ff737ce0',1,'crown',0);
INSERT INTO effects VALUES('8e7f2bd3ff737ce0',2,'promote',5);
INSERT INTO effects VALUES('8e7f2bd3ff737ce0',2,'no-corner-drop',15);
INSERT INTO effects VALUES('8e7f2bd3ff737ce0',2,'crown',0);
INSERT INTO effects VALUES('8e7f2bd3ff737ce0',3,'promote',2);
INSERT INTO effects VALUES('8e7f2bd3ff737ce0',3,'no-corner-drop',1);
INSERT INTO effects VALUES('8e7f2bd3ff737ce0',3,'crown',0);
INSERT INTO effects VALUES('8e7f2bd3ff737ce0',4,'promote',1);
INSERT INTO effects VALUES('8e7f2bd3ff737ce0',4,'no-corner-drop',8);
INSERT INTO effects VALUES('8e7f2bd3ff737ce0',4,'crown',0);
INSERT INTO effects VALUES('8e7f2bd3ff737ce0',5,'promote',1);
INSERT INTO effects VALUES('8e7f2bd3ff737ce0',5,'no-corner-drop',0);
INSERT INTO effects VALUES('8e7f2bd3ff737ce0',5,'crown',0);
INSERT INTO effects VALUES('8e7f2bd3ff737ce0',6,'promote',1);
INSERT INTO effects VALUES('8e7f2bd3ff737ce0',6,'no-corner-drop',5);
INSERT INTO effects VALUES('8e7f2bd3ff737ce0',6,'crown',0);
INSERT INTO effects VALUES('8e7f2bd3ff737ce0',7,'promote',3);
INSERT INTO effects VALUES('8e7f2bd3ff737ce0',7,'no-corner-drop',8);
INSERT INTO effects VALUES('8e7f2bd3ff737ce0',7,'crown',0);
INSERT INTO effects VALUES('8e7f2bd3ff737ce0',8,'promote',2);
INSERT INTO effects VALUES('8e7f2bd3ff737ce0',8,'no-corner-drop',13);
INSERT INTO effects VALUES('8e7f2bd3ff737ce0',8,'crown',0);
INSERT INTO effects VALUES('8e7f2bd3ff737ce0',9,'promote',1);
INSERT INTO effects VALUES('8e7f2bd3ff737ce0',9,'no-corner-drop',5);
INSERT INTO effects VALUES('8e7f2bd3ff737ce0',9,'crown',0);
INSERT INTO effects VALUES('8e7f2bd3ff737ce0',10,'promote',5);
INSERT INTO effects VALUES('8e7f2bd3ff737ce0',10,'no-corner-drop',26);
INSERT INTO effects VALUES('8e7f2bd3ff737ce0',10,'crown',0);
INSERT INTO effects VALUES('8e7f2bd3ff737ce0',11,'promote',3);
INSERT INTO effects VALUES('8e7f2bd3ff737ce0',11,'no-corner-drop',11);
INSERT INTO effects VALUES('8e7f2bd3ff737ce0',11,'crown',0);
COMMIT;
