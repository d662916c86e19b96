BEGIN TRANSACTION;
CREATE TABLE aliases (
  facet TEXT NOT NULL,
  term TEXT NOT NULL,
  lang TEXT NOT NULL,
  alias TEXT NOT NULL,
  PRIMARY KEY (facet, term, lang, alias),
  FOREIGN KEY (facet, term) REFERENCES terms(facet, id)
) WITHOUT ROWID;
INSERT INTO "aliases" VALUES('component','gpu-driver','en','NVIDIA driver');
INSERT INTO "aliases" VALUES('component','gpu-driver','ko','엔비디아 드라이버');
INSERT INTO "aliases" VALUES('component','infiniband-fabric','en','IB');
INSERT INTO "aliases" VALUES('component','infiniband-fabric','ko','인피니밴드');
INSERT INTO "aliases" VALUES('domain','kubernetes','en','k8s');
INSERT INTO "aliases" VALUES('domain','kubernetes','ko','쿠버네티스');
CREATE TABLE distinct_from (
  incident TEXT NOT NULL REFERENCES incidents(id),
  other TEXT NOT NULL,
  PRIMARY KEY (incident, other)
) WITHOUT ROWID;
CREATE TABLE facets (
  id TEXT PRIMARY KEY,
  position INTEGER NOT NULL,
  label_en TEXT NOT NULL,
  label_ko TEXT NOT NULL,
  description_en TEXT NOT NULL,
  description_ko TEXT NOT NULL,
  terms_per_case TEXT NOT NULL,
  required INTEGER NOT NULL,
  role TEXT NOT NULL
);
INSERT INTO "facets" VALUES('domain',0,'Domain','분야','Kind of infrastructure.','인프라 갈래.','many',1,'context');
INSERT INTO "facets" VALUES('organization',1,'Organization','조직','Who reported it.','보고한 조직.','one',1,'context');
INSERT INTO "facets" VALUES('symptom',2,'Symptom','증상','What was seen.','보인 현상.','many',1,'descriptive');
INSERT INTO "facets" VALUES('cause',3,'Cause','원인','Root cause.','근본 원인.','many',1,'descriptive');
INSERT INTO "facets" VALUES('component',4,'Component','구성 요소','Components involved.','얽힌 구성 요소.','many',1,'descriptive');
INSERT INTO "facets" VALUES('contributing_factor',5,'Contributing factor','기여 요인','What made it worse.','키운 조건.','many',0,'descriptive');
CREATE TABLE incident_terms (
  incident TEXT NOT NULL REFERENCES incidents(id),
  facet TEXT NOT NULL,
  term TEXT NOT NULL,
  position INTEGER NOT NULL,
  PRIMARY KEY (incident, facet, term),
  FOREIGN KEY (facet, term) REFERENCES terms(facet, id)
) WITHOUT ROWID;
INSERT INTO "incident_terms" VALUES('acme-fabric-flaps','cause','hardware-failure',0);
INSERT INTO "incident_terms" VALUES('acme-fabric-flaps','component','infiniband-fabric',0);
INSERT INTO "incident_terms" VALUES('acme-fabric-flaps','domain','ai-infra',0);
INSERT INTO "incident_terms" VALUES('acme-fabric-flaps','organization','acme',0);
INSERT INTO "incident_terms" VALUES('acme-fabric-flaps','symptom','training-job-failure',0);
INSERT INTO "incident_terms" VALUES('acme-gpu-outage','cause','gpu-failure',0);
INSERT INTO "incident_terms" VALUES('acme-gpu-outage','component','gpu-driver',0);
INSERT INTO "incident_terms" VALUES('acme-gpu-outage','component','infiniband-fabric',1);
INSERT INTO "incident_terms" VALUES('acme-gpu-outage','contributing_factor','unverified-assumption',0);
INSERT INTO "incident_terms" VALUES('acme-gpu-outage','domain','ai-infra',0);
INSERT INTO "incident_terms" VALUES('acme-gpu-outage','organization','acme',0);
INSERT INTO "incident_terms" VALUES('acme-gpu-outage','symptom','training-job-failure',0);
INSERT INTO "incident_terms" VALUES('globex-etcd-outage','cause','faulty-change',0);
INSERT INTO "incident_terms" VALUES('globex-etcd-outage','component','etcd',0);
INSERT INTO "incident_terms" VALUES('globex-etcd-outage','contributing_factor','missing-safeguard',0);
INSERT INTO "incident_terms" VALUES('globex-etcd-outage','domain','kubernetes',0);
INSERT INTO "incident_terms" VALUES('globex-etcd-outage','organization','globex',0);
INSERT INTO "incident_terms" VALUES('globex-etcd-outage','symptom','service-outage',0);
CREATE TABLE incidents (
  id TEXT PRIMARY KEY,
  position INTEGER NOT NULL UNIQUE,
  occurred TEXT NOT NULL,
  occurred_year INTEGER,
  ended TEXT,
  published TEXT NOT NULL,
  original_language TEXT NOT NULL,
  gpus INTEGER,
  hosts INTEGER,
  nodes INTEGER,
  clusters INTEGER,
  page_en TEXT NOT NULL,
  page_ko TEXT NOT NULL
);
INSERT INTO "incidents" VALUES('globex-etcd-outage',0,'unknown',NULL,NULL,'2024-04-02','en',4088,511,NULL,NULL,'en/cases/globex-etcd-outage.html','ko/cases/globex-etcd-outage.html');
INSERT INTO "incidents" VALUES('acme-gpu-outage',1,'2024-03-01',2024,NULL,'2024-04-02','en',4088,511,NULL,NULL,'en/cases/acme-gpu-outage.html','ko/cases/acme-gpu-outage.html');
INSERT INTO "incidents" VALUES('acme-fabric-flaps',2,'2023-11',2023,NULL,'2024-04-02','ko',4088,511,NULL,NULL,'en/cases/acme-fabric-flaps.html','ko/cases/acme-fabric-flaps.html');
CREATE TABLE not_in_sources (
  incident TEXT NOT NULL REFERENCES incidents(id),
  section TEXT NOT NULL,
  PRIMARY KEY (incident, section)
) WITHOUT ROWID;
INSERT INTO "not_in_sources" VALUES('acme-fabric-flaps','follow_ups');
CREATE TABLE related (
  incident TEXT NOT NULL REFERENCES incidents(id),
  position INTEGER NOT NULL,
  related TEXT NOT NULL REFERENCES incidents(id),
  shared INTEGER NOT NULL,
  PRIMARY KEY (incident, position)
) WITHOUT ROWID;
INSERT INTO "related" VALUES('acme-fabric-flaps',0,'acme-gpu-outage',2);
INSERT INTO "related" VALUES('acme-gpu-outage',0,'acme-fabric-flaps',2);
CREATE TABLE sources (
  incident TEXT NOT NULL REFERENCES incidents(id),
  position INTEGER NOT NULL,
  url TEXT NOT NULL,
  title TEXT NOT NULL,
  publisher TEXT NOT NULL,
  date TEXT NOT NULL,
  PRIMARY KEY (incident, position)
) WITHOUT ROWID;
INSERT INTO "sources" VALUES('acme-fabric-flaps',0,'https://reports.acme.dev/acme/fabric','Postmortem','Acme','2024-04-02');
INSERT INTO "sources" VALUES('acme-gpu-outage',0,'https://reports.acme.dev/postmortem','Postmortem','Acme','2024-04-02');
INSERT INTO "sources" VALUES('globex-etcd-outage',0,'https://reports.acme.dev/globex','Postmortem','Acme','2024-04-02');
CREATE TABLE summary_only (
  incident TEXT NOT NULL REFERENCES incidents(id),
  section TEXT NOT NULL,
  PRIMARY KEY (incident, section)
) WITHOUT ROWID;
INSERT INTO "summary_only" VALUES('acme-fabric-flaps','trigger');
CREATE TABLE terms (
  facet TEXT NOT NULL REFERENCES facets(id),
  id TEXT NOT NULL,
  position INTEGER NOT NULL,
  label_en TEXT NOT NULL,
  label_ko TEXT NOT NULL,
  description_en TEXT NOT NULL,
  description_ko TEXT NOT NULL,
  parent TEXT,
  cases INTEGER NOT NULL,
  PRIMARY KEY (facet, id),
  FOREIGN KEY (facet, parent) REFERENCES terms(facet, id)
) WITHOUT ROWID;
INSERT INTO "terms" VALUES('cause','faulty-change',2,'Faulty change','잘못된 변경','A change broke it.','변경이 장애를 냈다.',NULL,1);
INSERT INTO "terms" VALUES('cause','gpu-failure',1,'GPU failure','GPU 고장','A GPU failed.','GPU가 고장 났다.','hardware-failure',1);
INSERT INTO "terms" VALUES('cause','hardware-failure',0,'Hardware failure','하드웨어 고장','Hardware failed.','하드웨어가 고장 났다.',NULL,1);
INSERT INTO "terms" VALUES('component','etcd',2,'etcd','etcd','The key-value store.','키-값 저장소.',NULL,1);
INSERT INTO "terms" VALUES('component','gpu-driver',0,'GPU driver','GPU 드라이버','The GPU driver.','GPU 드라이버.',NULL,1);
INSERT INTO "terms" VALUES('component','infiniband-fabric',1,'InfiniBand fabric','InfiniBand 패브릭','The IB network.','IB 네트워크.',NULL,2);
INSERT INTO "terms" VALUES('contributing_factor','missing-safeguard',1,'Missing safeguard','안전장치 부재','No guard rail.','가드레일이 없었다.',NULL,1);
INSERT INTO "terms" VALUES('contributing_factor','unverified-assumption',0,'Unverified assumption','미검증 가정','Never checked.','확인하지 않은 가정.',NULL,1);
INSERT INTO "terms" VALUES('domain','ai-infra',1,'AI infrastructure','AI 인프라','GPU cluster incidents.','GPU 클러스터 사고.',NULL,2);
INSERT INTO "terms" VALUES('domain','kubernetes',0,'Kubernetes','Kubernetes','Kubernetes incidents.','쿠버네티스 사고.',NULL,1);
INSERT INTO "terms" VALUES('organization','acme',0,'Acme','애크미','A made-up company.','가상의 회사.',NULL,2);
INSERT INTO "terms" VALUES('organization','globex',1,'Globex','글로벡스','Another made-up company.','또 다른 가상의 회사.',NULL,1);
INSERT INTO "terms" VALUES('symptom','service-outage',1,'Service outage','서비스 중단','The service was down.','서비스가 멈췄다.',NULL,1);
INSERT INTO "terms" VALUES('symptom','training-job-failure',0,'Training job failure','학습 작업 실패','Training jobs failed.','학습 작업이 멈췄다.',NULL,2);
CREATE TABLE texts (
  incident TEXT NOT NULL REFERENCES incidents(id),
  lang TEXT NOT NULL,
  translated INTEGER NOT NULL,
  title TEXT NOT NULL,
  summary TEXT NOT NULL,
  symptoms TEXT NOT NULL,
  trigger TEXT NOT NULL,
  detection TEXT NOT NULL,
  actions TEXT NOT NULL,
  follow_ups TEXT NOT NULL,
  lessons TEXT NOT NULL,
  PRIMARY KEY (incident, lang)
);
INSERT INTO "texts" VALUES('globex-etcd-outage','en',0,'Globex: etcd loses quorum','Driver updates left GPUs unusable.','Jobs globex-etcd-outage stopped.','A driver update.','Health checks failed.','- Drained the hosts.','- Added a burn-in test.','Check every host.');
INSERT INTO "texts" VALUES('acme-gpu-outage','en',0,'Acme: GPUs fall off the bus','Driver updates left GPUs unusable.','Jobs acme-gpu-outage stopped.','A driver update.','Health checks failed.','- Drained the hosts.','- Added a burn-in test.','Check every host.');
INSERT INTO "texts" VALUES('acme-gpu-outage','ko',1,'애크미: GPU 이탈','드라이버 업데이트로 GPU를 못 쓰게 됐습니다.','x 작업이 멈췄습니다.','드라이버 업데이트.','헬스 체크가 실패했습니다.','- 호스트를 뺐습니다.','- 번인 테스트를 넣었습니다.','모든 호스트를 확인합니다.');
INSERT INTO "texts" VALUES('acme-fabric-flaps','ko',0,'애크미: 패브릭 링크 플래핑','Driver updates left GPUs unusable.','acme-fabric-flaps 작업이 멈췄습니다.','드라이버 업데이트.','헬스 체크가 실패했습니다.','- 호스트를 뺐습니다.','','모든 호스트를 확인합니다.');
INSERT INTO "texts" VALUES('acme-fabric-flaps','en',1,'Acme: fabric links flap','드라이버 업데이트로 GPU를 못 쓰게 됐습니다.','Jobs x stopped.','A driver update.','Health checks failed.','- Drained the hosts.','','Check every host.');
CREATE INDEX incident_terms_by_term ON incident_terms (facet, term);
CREATE INDEX incidents_by_year ON incidents (occurred_year);
CREATE INDEX texts_by_lang ON texts (lang);
CREATE INDEX related_by_related ON related (related);
CREATE INDEX terms_by_parent ON terms (facet, parent);
CREATE VIEW cases_per_term_and_year AS
SELECT it.facet, it.term, t.label_en, t.label_ko, i.occurred_year AS year,
       COUNT(*) AS cases
FROM incident_terms it
JOIN incidents i ON i.id = it.incident
JOIN terms t ON t.facet = it.facet AND t.id = it.term
GROUP BY it.facet, it.term, i.occurred_year;
CREATE VIEW cooccurring_terms AS
SELECT a.facet AS facet_a, a.term AS term_a, b.facet AS facet_b, b.term AS term_b,
       COUNT(*) AS cases
FROM incident_terms a
JOIN incident_terms b ON a.incident = b.incident AND a.facet <> b.facet
GROUP BY a.facet, a.term, b.facet, b.term;
CREATE VIEW case_titles AS
SELECT i.id, i.position, i.occurred, i.original_language,
       COALESCE(en.title, orig.title) AS title_en, COALESCE(ko.title, orig.title) AS title_ko,
       COALESCE(en.summary, orig.summary) AS summary_en,
       COALESCE(ko.summary, orig.summary) AS summary_ko
FROM incidents i
JOIN texts orig ON orig.incident = i.id AND orig.translated = 0
LEFT JOIN texts en ON en.incident = i.id AND en.lang = 'en'
LEFT JOIN texts ko ON ko.incident = i.id AND ko.lang = 'ko';
COMMIT;
